import { describe, expect, it } from 'vitest';
import { fakeJwt } from '../support/fake-secrets';
import { completeDraft } from '../support/drafts';
import { COMPLETE_DESCRIPTION, harnessPerTest, server, type Harness } from './harness';

/**
 * What the draft view says of the server's copy: queued (`unsent`), or kept here with nothing
 * queued (`notOnServer`). A walk discarded a held-back save and the editor still said "Saved and
 * sent." while the service had the version before.
 */
const CONTENT = completeDraft('IDOR on order details', 'https://*.shop.example.com/api/orders');

async function sendState(x: Harness, reportId: string) {
  const draft = (await x.engine.calls.getReport(reportId))?.draft;
  return { unsent: draft?.unsent, notOnServer: draft?.notOnServer };
}

describe('a draft’s standing with the server', () => {
  const open = harnessPerTest();

  it('a discarded save leaves the draft not on the server until the next change sends it all', async () => {
    const x = await open();
    const { reportId } = await x.engine.calls.createDraft(x.programs.open.id);
    await x.engine.calls.saveDraft(reportId, CONTENT);
    await x.engine.session.drain();
    expect(await sendState(x, reportId)).toEqual({ unsent: false, notOnServer: false });

    const jwt = fakeJwt();
    const request = `\n\n\`\`\`http\nGET /api/orders/1002 HTTP/1.1\nHost: api.shop.example.com\nAuthorization: Bearer ${jwt}\n\n{"order": 1002}\n\`\`\`\n`;
    const leaky = { ...CONTENT, description: `${COMPLETE_DESCRIPTION}${request}` };
    const saved = await x.engine.calls.saveDraft(reportId, leaky);
    expect(saved).toMatchObject({ unsent: true, notOnServer: false });
    await x.engine.session.drain();
    const held = (await x.engine.calls.getReport(reportId))?.outbox.find(
      (e) => e.state === 'parked',
    );
    expect(held?.error?.code).toBe('secrets_found');
    // Held back: still a change of the queue's, not yet "not on the server".
    expect(await sendState(x, reportId)).toEqual({ unsent: true, notOnServer: false });

    await x.engine.calls.discardEntry(held?.id ?? -1);
    expect(await sendState(x, reportId)).toEqual({ unsent: false, notOnServer: true });
    expect((await server(x, reportId)).description).toBe(COMPLETE_DESCRIPTION);

    // The next change sends the whole draft, the part whose sending was discarded with it.
    const redacted = leaky.description.replace(jwt, '[REDACTED:jwt]');
    await x.engine.calls.saveDraft(reportId, { ...leaky, description: redacted });
    await x.engine.session.drain();
    expect(await sendState(x, reportId)).toEqual({ unsent: false, notOnServer: false });
    expect((await server(x, reportId)).description).toBe(redacted);
  });

  it('a change that fails a local check is not on the server; fixing it sends it', async () => {
    const x = await open();
    const { reportId } = await x.engine.calls.createDraft(x.programs.open.id);
    await x.engine.calls.saveDraft(reportId, CONTENT);
    await x.engine.session.drain();
    // A vector typed half-way: the API refuses it, so it is kept here and not sent.
    const halfVector = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:';
    const view = await x.engine.calls.saveDraft(reportId, { ...CONTENT, cvss_vector: halfVector });
    expect(view.issues.map((i) => i.field)).toContain('cvss_vector');
    expect(view).toMatchObject({ unsent: false, notOnServer: true });
    const vector = `${halfVector}H/A:N`;
    await x.engine.calls.saveDraft(reportId, { ...CONTENT, cvss_vector: vector });
    await x.engine.session.drain();
    expect(await sendState(x, reportId)).toEqual({ unsent: false, notOnServer: false });
    expect((await server(x, reportId)).cvss_vector).toBe(vector);
  });

  it('a link to another report’s file, which is never sent, does not make the draft unsent', async () => {
    const x = await open();
    const { reportId } = await x.engine.calls.createDraft(x.programs.open.id);
    const foreign = `![invoice-1002.jpg](/reports/rep_0000000000000000000000000a/files/00000000-0000-4000-8000-000000000001)`;
    const description = `${COMPLETE_DESCRIPTION}\nSee ${foreign} from C:\\Users\\me\\Desktop\\invoice-1002.jpg.\n`;
    await x.engine.calls.saveDraft(reportId, { ...CONTENT, description });
    await x.engine.session.drain();
    expect((await server(x, reportId)).description).not.toContain('/files/');
    expect(await sendState(x, reportId)).toEqual({ unsent: false, notOnServer: false });
  });
});
