import { describe, expect, it } from 'vitest';
import { COMPLETE_DESCRIPTION, harnessPerTest, openHarness, type Harness } from './harness';

const CONTENT = {
  title: 'Stored XSS in the profile bio',
  asset: 'https://app.example.com/profile',
  description: COMPLETE_DESCRIPTION,
  cvss_vector: '',
};

/** The inbox, "Sync now" and the outbox's answer to the researcher's edits. */
describe('engine: inbox, Sync now, parked changes', () => {
  const open = harnessPerTest();

  async function submitted(x: Harness): Promise<string> {
    const draft = await x.engine.calls.createDraft(x.programs.open.id);
    await x.engine.calls.saveDraft(draft.reportId, CONTENT);
    await x.engine.calls.submit(draft.reportId);
    await x.engine.session.drain();
    await x.engine.calls.syncNow();
    return draft.reportId;
  }

  it('counts unread triage messages until the thread is opened, and needs_info until it is answered', async () => {
    const x = await open(undefined, { sync: false });
    const id = await submitted(x);
    expect((await x.engine.getStatus()).inbox).toEqual([]);

    await x.sandbox.act(id, { actor: 'agent', status: 'needs_info', message: 'Which browser?' });
    await x.engine.calls.syncNow();
    let status = await x.engine.getStatus();
    expect(status.inbox).toEqual([
      expect.objectContaining({ reportId: id, title: CONTENT.title, unread: 1, needsInfo: true }),
    ]);
    expect(status.unread).toBe(1);
    expect(status.needsAction).toBe(1);

    // Reading the report (a background reload of the page) is not opening the thread.
    await x.engine.calls.getReport(id);
    await x.engine.calls.syncNow();
    expect((await x.engine.getStatus()).inbox).toHaveLength(1);

    // Reading the question does not answer it: it keeps waiting, its message is read.
    await x.engine.calls.markThreadRead(id);
    status = await x.engine.getStatus();
    expect(status.inbox).toEqual([
      expect.objectContaining({ reportId: id, unread: 0, needsInfo: true }),
    ]);
    expect([status.unread, status.needsAction]).toEqual([0, 1]);
    await x.engine.calls.syncNow();
    expect((await x.engine.getStatus()).needsAction).toBe(1);

    // A reply answers it, already while it waits to be sent.
    await x.engine.calls.postMessage(id, { body: 'Firefox 140 on Linux.', filePaths: [] });
    status = await x.engine.getStatus();
    expect(status.inbox).toEqual([]);
    expect([status.unread, status.needsAction]).toEqual([0, 0]);
    await x.engine.session.drain();
    await x.engine.calls.syncNow();
    expect((await x.engine.getStatus()).needsAction).toBe(0);

    // The program team writes while the report is in triage: unread again, no question.
    await x.sandbox.act(id, { actor: 'founder', status: 'human_review', message: 'Looking.' });
    await x.engine.calls.syncNow();
    status = await x.engine.getStatus();
    expect(status.inbox).toEqual([
      expect.objectContaining({ reportId: id, unread: 1, needsInfo: false }),
    ]);
    expect(status.needsAction).toBe(0);
  });

  it('a reply discarded before it was sent leaves the question waiting again', async () => {
    const x = await open(undefined, { sync: false });
    const id = await submitted(x);
    await x.sandbox.act(id, { actor: 'agent', status: 'needs_info', message: 'Which browser?' });
    await x.engine.calls.syncNow();
    expect((await x.engine.getStatus()).needsAction).toBe(1);

    // The line drops: the reply waits in the queue, and it answers the question meanwhile.
    await x.sandbox.faults({ rate: 1, reset_connection: true, seed: 5 });
    await x.engine.calls.postMessage(id, { body: 'Firefox 140 on Linux.', filePaths: [] });
    expect((await x.engine.getStatus()).needsAction).toBe(0);
    const queued = (await x.engine.calls.getReport(id))?.outbox.find(
      (e) => e.kind === 'post_message',
    );
    expect(queued?.state).not.toBe('done');

    // The researcher takes it back: the question is unanswered again, in the Inbox and the count.
    await x.engine.calls.discardEntry(queued?.id ?? -1);
    const status = await x.engine.getStatus();
    expect(status.needsAction).toBe(1);
    expect(status.inbox).toEqual([expect.objectContaining({ reportId: id, needsInfo: true })]);

    // A second reply that is sent answers it for good.
    await x.sandbox.faults({ rate: 0 });
    await x.engine.calls.postMessage(id, { body: 'Chrome 140 on Linux.', filePaths: [] });
    await x.engine.session.drain();
    await x.engine.calls.syncNow();
    expect((await x.engine.getStatus()).needsAction).toBe(0);
  });

  it('a first sync of an account does not fill the inbox with its history', async () => {
    const x = await open(undefined, { sync: false });
    const id = await submitted(x);
    await x.sandbox.act(id, { actor: 'founder', status: 'human_review', message: 'Old note.' });
    // Another computer: a new mirror of the same account.
    const again = await openHarness();
    try {
      await again.engine.connect({ serverUrl: x.sandbox.url, apiKey: x.key });
      await again.engine.calls.syncNow();
      expect((await again.engine.getStatus()).inbox).toEqual([]);
    } finally {
      await again.close();
    }
  });

  it('"Sync now" refreshes programs and policies; a draft knows the policy it was started under', async () => {
    const x = await open(undefined, { sync: false });
    await x.engine.calls.syncNow();
    const program = x.programs.open.id;
    const before = (await x.engine.calls.getProgram(program))?.policy_version ?? -1;
    const draft = await x.engine.calls.createDraft(program);
    expect(draft.policyVersionAtStart).toBe(before);

    await x.sandbox.patchProgram(program, { policy: { scope: 'Only app.example.com now.' } });
    await x.engine.calls.syncNow();
    const after = await x.engine.calls.getProgram(program);
    expect(after?.policy_version).toBe(before + 1);
    expect(after?.scope).toBe('Only app.example.com now.');
    expect((await x.engine.calls.getReport(draft.reportId))?.draft?.policyVersionAtStart).toBe(
      before,
    );
  });

  it('a save the server refused is sent again when the researcher edits the draft', async () => {
    const x = await open({ email_verified: false, payments_status: 'ready' }, { sync: false });
    const draft = await x.engine.calls.createDraft(x.programs.open.id);
    await x.engine.calls.saveDraft(draft.reportId, CONTENT);
    await x.engine.session.drain();
    let outbox = (await x.engine.calls.getReport(draft.reportId))?.outbox ?? [];
    expect(outbox.map((e) => [e.kind, e.state, e.error?.code])).toContainEqual([
      'save_report',
      'parked',
      'email_unverified',
    ]);

    // Verified on the website meanwhile; the researcher goes on writing: no Retry needed.
    await x.sandbox.patchAccount(x.account.uid, { email_verified: true });
    const edited = { ...CONTENT, title: `${CONTENT.title} (edited)` };
    await x.engine.calls.saveDraft(draft.reportId, edited);
    await x.engine.session.drain();
    outbox = (await x.engine.calls.getReport(draft.reportId))?.outbox ?? [];
    expect(outbox.filter((e) => e.state !== 'done')).toEqual([]);
    const server = await x.sandbox.api<{ title: string; description: string }>(
      'GET',
      `/api/reports/${draft.reportId}`,
      { token: x.key },
    );
    expect([server.body.title, server.body.description]).toEqual([
      edited.title,
      edited.description,
    ]);
    expect((await x.engine.getStatus()).needsAction).toBe(0);
  });
});
