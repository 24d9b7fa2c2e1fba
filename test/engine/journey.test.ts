import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import { COMPLETE_DESCRIPTION, openHarness, type Harness } from './harness';
import type { Report } from '../../src/shared/api';

/**
 * The researcher journey of the engine issue, against the sandbox over real HTTP with a real
 * SQLite file and the real keychain: a draft written offline, evidence attached, back online,
 * the submit checklist failing then fixed, needs_info, a reply with a file, the decision and the
 * payout received.
 */
describe('engine: full researcher journey', () => {
  let h: Harness;
  let reportId: string;

  beforeAll(async () => {
    h = await openHarness({ email_verified: true, payments_status: 'not_started' });
  });
  afterAll(async () => {
    await h.close();
  });

  it('signs in with a write key kept in the OS keychain, never in the mirror', async () => {
    const account = await h.engine.connect({ serverUrl: h.sandbox.url, apiKey: h.key });
    expect(account.scope).toBe('write');
    expect(account.me?.uid).toBe(h.account.uid);
    await h.engine.calls.syncNow();
    const mirror = readdirSync(join(h.dataDir, 'accounts'));
    expect(mirror).toHaveLength(1);
    const file = join(h.dataDir, 'accounts', mirror[0] as string, 'mirror.sqlite');
    const bytes = await readFile(file);
    expect(bytes.includes(Buffer.from(h.key))).toBe(false);
    const accountJson = await readFile(join(h.dataDir, 'account.json'), 'utf8');
    expect(accountJson).not.toContain(h.key);
  });

  it('writes a draft offline: on disk at once, queued, nothing lost', async () => {
    await h.sandbox.faults({ rate: 1, reset_connection: true, seed: 1 });
    const draft = await h.engine.calls.createDraft(h.programs.open.id);
    reportId = draft.reportId;
    expect(draft.content.description).toContain('## Steps to reproduce');
    const evidence = await h.file('poc.txt', 'GET /login?next=javascript:alert(1)\n');
    const [file] = await h.engine.calls.attachFiles(reportId, [{ path: evidence, insertAt: 0 }]);
    expect(file?.sha256).toMatch(/^[0-9a-f]{64}$/);
    const current = await h.engine.calls.getReport(reportId);
    const linked = current?.draft?.content.description ?? '';
    const saved = await h.engine.calls.saveDraft(reportId, {
      title: 'Open redirect to javascript: on login',
      asset: 'https://app.example.com/login',
      description: `${linked}\n${COMPLETE_DESCRIPTION}`,
      cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N',
    });
    expect(saved.issues).toEqual([]);
    // The content is in SQLite before any network call succeeded.
    const dir = readdirSync(join(h.dataDir, 'accounts'))[0] as string;
    const db = new Database(join(h.dataDir, 'accounts', dir, 'mirror.sqlite'), { readonly: true });
    const row = db.prepare('SELECT title FROM drafts WHERE report_id = ?').get(reportId) as {
      title: string;
    };
    db.close();
    expect(row.title).toBe('Open redirect to javascript: on login');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const status = await h.engine.getStatus();
    expect(status.unsent).toBeGreaterThan(0);
    // An answer can still arrive (a retried save answered 409 by the sandbox when the first try
    // was carried out and its answer dropped), so the check is that the engine went offline.
    expect(h.events.connectivity?.map((e) => e.state)).toContain('offline');
  });

  it('goes online and sends everything in order: the file is ready before the save that links it', async () => {
    await h.sandbox.clearFaults();
    for (const entry of (await h.engine.calls.getReport(reportId))?.outbox ?? []) {
      await h.engine.calls.retryEntry(entry.id);
    }
    await h.engine.session.drain();
    const res = await h.sandbox.api<Report>('GET', `/api/reports/${reportId}`, { token: h.key });
    expect(res.status).toBe(200);
    const report = res.body as Report;
    expect(report.status).toBe('draft');
    expect(report.title).toBe('Open redirect to javascript: on login');
    const files = Object.entries(report.attachments);
    expect(files).toHaveLength(1);
    expect(files[0]?.[1].state).toBe('ready');
    expect(report.description).toContain(`/reports/${reportId}/files/${files[0]?.[0]}`);
    const view = await h.engine.calls.getReport(reportId);
    expect(view?.evidence[0]?.state).toBe('uploaded');
    expect(view?.draft?.baseRevision).toBe(report.revision);
    expect(h.events.connectivity?.map((e) => e.state)).toContain('online');
  });

  it('fails the checklist on payments, parks the submit with the reason, then submits once fixed', async () => {
    const checklist = await h.engine.calls.getChecklist(reportId);
    expect(checklist.ok).toBe(false);
    expect(checklist.items.find((i) => i.id === 'payments_not_ready')?.ok).toBe(false);
    expect(checklist.items.find((i) => i.id === 'incomplete_report')?.ok).toBe(true);
    await h.engine.calls.submit(reportId);
    await h.engine.session.drain();
    const parked = (await h.engine.calls.getReport(reportId))?.outbox.find(
      (e) => e.kind === 'submit',
    );
    expect(parked?.state).toBe('parked');
    expect(parked?.error?.code).toBe('payments_not_ready');

    await h.sandbox.patchAccount(h.account.uid, { payments_status: 'ready' });
    await h.engine.calls.refreshPayments();
    expect((await h.engine.calls.getChecklist(reportId)).ok).toBe(true);
    await h.engine.calls.retryEntry(parked?.id ?? -1);
    await h.engine.session.drain();
    const view = await h.engine.calls.getReport(reportId);
    expect(view?.report?.status).toBe('triaging');
    expect(view?.report?.submission?.content.title).toBe('Open redirect to javascript: on login');
    expect(view?.draft).toBeNull();
  });

  it('notices needs_info once, across a restart', async () => {
    await h.sandbox.askForInformation(reportId, 'Which browser did you use?');
    await h.engine.calls.syncNow();
    expect(h.events['needs-info']?.map((e) => e.reportId)).toEqual([reportId]);
    const thread = (await h.engine.calls.getReport(reportId))?.messages ?? [];
    expect(thread.at(-1)?.body).toBe('Which browser did you use?');
    await h.restart();
    await h.engine.calls.syncNow();
    await h.engine.calls.syncNow();
    expect(h.events['needs-info']).toHaveLength(1);
  });

  it('replies with a file: needs_info becomes triaging, exactly one message', async () => {
    const shot = await h.file('browser.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]));
    await h.engine.calls.postMessage(reportId, {
      body: 'Firefox 140 on Linux.',
      filePaths: [shot],
    });
    await h.engine.session.drain();
    await h.engine.calls.syncNow();
    const view = await h.engine.calls.getReport(reportId);
    expect(view?.report?.status).toBe('triaging');
    const mine = view?.messages.filter((m) => m.author === 'researcher') ?? [];
    expect(mine).toHaveLength(1);
    expect(mine[0]?.attachments.map((a) => a.name)).toEqual(['browser.png']);
  });

  it('sees the decision and follows the payout until received', async () => {
    await h.sandbox.act(reportId, { actor: 'founder', status: 'accepted', message: 'Thanks!' });
    await h.engine.calls.syncNow();
    expect(h.events.decision?.map((e) => e.outcome)).toEqual(['accepted']);
    for (const status of ['approving', 'transferred', 'received']) {
      await h.sandbox.payout(reportId, { status, amount_cents: 125_000 });
      // The user's "Sync now" reads payouts too (they do not change updated_at).
      await h.engine.calls.syncNow();
    }
    expect(h.events['payout-changed']?.map((e) => e.status)).toEqual([
      'approving',
      'transferred',
      'received',
    ]);
    const view = await h.engine.calls.getReport(reportId);
    expect(view?.report?.payout?.status).toBe('received');
    expect(view?.report?.payout?.amount_cents).toBe(125_000);
  });

  it('sign-out deletes the key from the keychain', async () => {
    await h.engine.signOut();
    const { KeychainSecretStore } = await import('../../src/engine/secrets');
    expect(await new KeychainSecretStore().get(h.sandbox.url)).toBeNull();
  });
});
