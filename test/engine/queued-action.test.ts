import { describe, expect, it } from 'vitest';
import type { ReportListItemView } from '../../src/shared/bridge/views';
import { waitUntil } from '../support/wait';
import { COMPLETE_DESCRIPTION, harnessPerTest, type Harness } from './harness';

/**
 * A submit or withdraw made offline: the server's status is still the one before, and the list's
 * row says what is on its way ("Submitting", "Withdrawing"), not "Draft · Unsent" (a walk). A
 * stopped one is the researcher's to act on, and says so instead ("Needs your action").
 */
describe('engine: the list row of a submit or withdraw on its way', () => {
  const open = harnessPerTest((h) => h.sandbox.clearFaults());

  const listed = async (h: Harness, reportId: string): Promise<ReportListItemView | undefined> =>
    (await h.engine.calls.listReports({})).items.find((r) => r.id === reportId);
  const offline = (h: Harness) => h.sandbox.faults({ rate: 1, reset_connection: true, seed: 7 });
  /** The entry of `kind` has been tried, and failed: it waits for the connection. */
  const tried = (h: Harness, reportId: string, kind: string): Promise<void> =>
    waitUntil(
      `the ${kind} tried`,
      async () =>
        !!(await h.engine.calls.getReport(reportId))?.outbox.some(
          (e) => e.kind === kind && e.attempts > 0 && e.state === 'pending',
        ),
      { timeoutMs: 10_000, everyMs: 20 },
    );
  const online = async (h: Harness, reportId: string): Promise<void> => {
    await h.sandbox.clearFaults();
    // The entries wait out their back-off: sent now, as Sync now would.
    for (const entry of (await h.engine.calls.getReport(reportId))?.outbox ?? []) {
      if (entry.state !== 'done') await h.engine.calls.retryEntry(entry.id);
    }
    await h.engine.session.drain();
  };

  const content = {
    title: 'IDOR on GET /api/v2/orders/{id} with `Authorization: Bearer` of another account',
    asset: 'https://*.shop.example.com/api/v2/orders',
    description: `${COMPLETE_DESCRIPTION}\n\n| host | path |\n|---|---|\n| api.example.com | C:\\Users\\r\\poc.http |\n`,
    cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N',
  };

  it('submitted offline: "submit" on its way over the server\'s draft, then the server\'s status', async () => {
    const h = await open();
    const draft = await h.engine.calls.createDraft(h.programs.open.id);
    await h.engine.calls.saveDraft(draft.reportId, content);
    await h.engine.session.drain();
    expect((await listed(h, draft.reportId))?.queuedAction).toBeNull();

    await offline(h);
    // Queued, and tried against a server that resets every connection (not drained: offline,
    // the queue waits for the connection).
    await h.engine.calls.submit(draft.reportId);
    await tried(h, draft.reportId, 'submit');
    expect(await listed(h, draft.reportId)).toMatchObject({
      status: 'draft',
      queuedAction: 'submit',
      unsent: true,
      needsAction: false,
    });

    await online(h, draft.reportId);
    expect(await listed(h, draft.reportId)).toMatchObject({
      status: 'triaging',
      queuedAction: null,
      unsent: false,
    });

    await offline(h);
    await h.engine.calls.withdraw(draft.reportId);
    await tried(h, draft.reportId, 'withdraw');
    expect(await listed(h, draft.reportId)).toMatchObject({
      status: 'triaging',
      queuedAction: 'withdraw',
    });
    await online(h, draft.reportId);
    expect(await listed(h, draft.reportId)).toMatchObject({
      status: 'withdrawn',
      queuedAction: null,
    });
  });

  it('a draft made and submitted offline (the server has none yet) says "submit" too', async () => {
    const h = await open();
    await offline(h);
    const draft = await h.engine.calls.createDraft(h.programs.open.id);
    await h.engine.calls.saveDraft(draft.reportId, content);
    // Its submit waits behind the draft's creation, which the server has not answered.
    await h.engine.calls.submit(draft.reportId);
    expect(await listed(h, draft.reportId)).toMatchObject({
      status: 'draft',
      queuedAction: 'submit',
      unsent: true,
    });
  });

  it('a submit the server refused is stopped: it needs the researcher, nothing is "on its way"', async () => {
    const h = await open();
    const draft = await h.engine.calls.createDraft(h.programs.open.id);
    await h.engine.calls.saveDraft(draft.reportId, content);
    await h.engine.session.drain();
    await h.sandbox.patchProgram(h.programs.open.id, { intake: 'closed' });
    await h.engine.calls.submit(draft.reportId);
    await h.engine.session.drain();
    expect(await listed(h, draft.reportId)).toMatchObject({
      status: 'draft',
      queuedAction: null,
      needsAction: true,
    });
  });
});
