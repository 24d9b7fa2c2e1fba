import { afterEach, describe, expect, it } from 'vitest';
import type { DraftContent } from '../../src/shared/bridge/views';
import type { Report, SlowUpload } from '../support/sandbox-client';
import { COMPLETE_DESCRIPTION, openHarness, type Harness } from './harness';

/**
 * Each submit precondition of part 4, against the sandbox with its rate limits on: the local
 * checklist item fails with a useful detail, the submit is parked with the server's code (the UI
 * shows "needs your action"), another report's writes still go out, and fixing the cause plus
 * retryEntry submits.
 */
const COMPLETE: DraftContent = {
  title: 'Stored XSS in the profile bio',
  asset: 'https://app.example.com/profile',
  description: COMPLETE_DESCRIPTION,
  cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N',
};

interface Case {
  code: string;
  /** Makes the server refuse the submit; refreshes what the checklist reads. */
  breakIt(h: Harness, reportId: string): Promise<void>;
  /** The local checklist's detail while it is broken. */
  detail: RegExp;
  fix(h: Harness, reportId: string): Promise<void>;
  /** Reports to submit before the one under test (active_limit). */
  alreadyActive?: number;
}

let slow: SlowUpload | null = null;

async function serverReport(h: Harness, reportId: string): Promise<Report> {
  const res = await h.sandbox.api<Report>('GET', `/api/reports/${reportId}`, { token: h.key });
  expect(res.status).toBe(200);
  return res.body;
}

async function readyDraft(h: Harness, programId: string, title = COMPLETE.title): Promise<string> {
  const draft = await h.engine.calls.createDraft(programId);
  await h.engine.calls.saveDraft(draft.reportId, { ...COMPLETE, title });
  await h.engine.session.drain();
  return draft.reportId;
}

async function parkedSubmit(h: Harness, reportId: string) {
  const view = await h.engine.calls.getReport(reportId);
  return view?.outbox.find((e) => e.kind === 'submit' && e.state === 'parked');
}

const CASES: Case[] = [
  {
    code: 'email_unverified',
    async breakIt(h) {
      await h.sandbox.patchAccount(h.account.uid, { email_verified: false });
      await h.engine.session.syncNow(['account']);
    },
    detail: /is not verified yet/,
    async fix(h) {
      await h.sandbox.patchAccount(h.account.uid, { email_verified: true });
      await h.engine.session.syncNow(['account']);
    },
  },
  {
    code: 'payments_not_ready',
    async breakIt(h) {
      await h.sandbox.patchAccount(h.account.uid, { payments_status: 'needs_information' });
      await h.engine.calls.refreshPayments();
    },
    detail: /Payout account status: needs information/,
    async fix(h) {
      await h.sandbox.patchAccount(h.account.uid, { payments_status: 'ready' });
      await h.engine.calls.refreshPayments();
    },
  },
  {
    code: 'incomplete_report',
    async breakIt(h, reportId) {
      await h.engine.calls.saveDraft(reportId, { ...COMPLETE, asset: '' });
      await h.engine.session.drain();
    },
    detail: /The asset is empty/,
    async fix(h, reportId) {
      // The fix is a save queued after the parked submit: it must go out first.
      await h.engine.calls.saveDraft(reportId, COMPLETE);
    },
  },
  {
    code: 'files_pending',
    async breakIt(h, reportId) {
      // A second client (the website) is still uploading a file to the draft.
      const { revision } = await serverReport(h, reportId);
      slow = await h.sandbox.slowUpload(
        `/api/reports/${reportId}/files/3f0e9a4e-54c7-4a41-9d0e-0b7f3f7a2c11`,
        {
          token: h.key,
          query: { name: 'capture.har', revision },
          bytes: Buffer.alloc(64 * 1024, 7),
        },
      );
      await h.engine.session.syncNow(['reports']);
    },
    detail: /Still uploading: “capture\.har”/,
    async fix(h) {
      expect((await slow?.finish())?.status).toBe(200);
      await h.engine.session.syncNow(['reports']);
    },
  },
  {
    code: 'program_closed',
    async breakIt(h) {
      await h.sandbox.patchProgram(h.programs.open.id, { intake: 'closed' });
      await h.engine.session.syncNow(['programs']);
    },
    detail: /is closed for new reports/,
    async fix(h) {
      await h.sandbox.patchProgram(h.programs.open.id, { intake: 'open' });
      await h.engine.session.syncNow(['programs']);
    },
  },
  {
    code: 'pool_low',
    async breakIt(h) {
      await h.sandbox.patchProgram(h.programs.open.id, { pool_paused: true });
      await h.engine.session.syncNow(['programs']);
    },
    detail: /paused new reports because its reward pool is low/,
    async fix(h) {
      await h.sandbox.patchProgram(h.programs.open.id, { pool_paused: false });
      await h.engine.session.syncNow(['programs']);
    },
  },
  {
    code: 'active_limit',
    alreadyActive: 5,
    async breakIt(h) {
      await h.engine.session.syncNow(['reports', 'account']);
    },
    detail: /All 5 active-report slots are in use \(5\/5\)/,
    async fix(h) {
      const active = (await h.engine.calls.listReports({ status: ['triaging'] })).items;
      await h.engine.calls.withdraw(active[0]?.id ?? '');
      await h.engine.session.drain();
      await h.engine.session.syncNow(['reports', 'account']);
    },
  },
];

describe('engine: each submit precondition parks the submit until fixed', () => {
  let h: Harness | null = null;
  afterEach(async () => {
    await h?.close();
    h = null;
    slow = null;
  });

  for (const c of CASES) {
    it(`${c.code}: the checklist says why, the submit waits for the user, other reports go on`, async () => {
      h = await openHarness();
      await h.engine.connect({ serverUrl: h.sandbox.url, apiKey: h.key });
      await h.engine.session.syncNow(['reports', 'account', 'programs']);
      for (let i = 0; i < (c.alreadyActive ?? 0); i++) {
        const id = await readyDraft(h, h.programs.open.id, `Active ${i}`);
        await h.engine.calls.submit(id);
      }
      await h.engine.session.drain();
      const other = await readyDraft(h, h.programs.open.id, 'Another report');
      const target = await readyDraft(h, h.programs.open.id);
      expect((await h.engine.calls.getChecklist(target)).ok).toBe(c.alreadyActive === undefined);

      await c.breakIt(h, target);
      const checklist = await h.engine.calls.getChecklist(target);
      const item = checklist.items.find((i) => i.id === c.code);
      expect(checklist.ok).toBe(false);
      expect(item?.ok).toBe(false);
      expect(item?.detail).toMatch(c.detail);
      expect(item?.fix.length).toBeGreaterThan(10);

      await h.engine.calls.submit(target);
      await h.engine.session.drain();
      const parked = await parkedSubmit(h, target);
      expect(parked?.error?.code).toBe(c.code);
      expect(parked?.error?.title.length).toBeGreaterThan(5);
      const listed = (await h.engine.calls.listReports({})).items.find((r) => r.id === target);
      expect(listed?.needsAction).toBe(true);
      const stuck = await h.engine.getStatus();
      expect(stuck.needsAction).toBe(1);
      // Everything still unsent waits for the researcher: nothing else is on its way.
      expect([stuck.held, stuck.unsent]).toEqual([1, 1]);
      expect((await serverReport(h, target)).status).toBe('draft');

      // The parked submit holds only its own report.
      const evidence = await h.file('other.txt', 'other evidence\n');
      await h.engine.calls.attachFiles(other, [{ path: evidence }]);
      await h.engine.session.drain();
      expect(Object.values((await serverReport(h, other)).attachments)).toHaveLength(1);

      await c.fix(h, target);
      const again = await parkedSubmit(h, target);
      expect(again?.error?.code).toBe(c.code);
      await h.engine.calls.retryEntry(again?.id ?? -1);
      await h.engine.session.drain();
      const report = await serverReport(h, target);
      expect(report.status).toBe('triaging');
      expect(report.submission?.content.asset).toBe(COMPLETE.asset);
      expect(await h.engine.getStatus()).toMatchObject({ needsAction: 0, held: 0, unsent: 0 });
    });
  }
});
