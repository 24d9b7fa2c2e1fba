import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  migrations,
  openStore,
  SchemaTooNewError,
  unsentWorkDir,
  type Store,
} from '../../src/engine/store';
import { openMirror } from '../../src/engine/store/open-mirror';
import { tempFileEachTest } from '../support/temp-dirs';
import { makeMessage, makeReport } from './fixtures';

const temp = tempFileEachTest('damaged-mirror-', 'mirror.sqlite');

const typed = {
  title: 'IDOR on /api/v2/invoices/{id} leaks other tenants’ PDFs',
  asset: 'https://billing.acme.example/api/v2/invoices',
  description:
    '## Steps to reproduce\n\n1. `curl -H "Cookie: s=…" https://billing.acme.example/api/v2/invoices/1002`\n\n| id | owner |\n|---|---|\n| 1002 | other |',
  cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N',
};

/** A mirror of 400 reports with threads (enough pages that half a file is missing something),
 * plus the researcher's unsent work: a local draft with a queued save and a file, and a reply. */
async function mirrorWithUnsentWork(): Promise<{ draftId: string; replyReportId: string }> {
  const store = openStore({ file: temp.file, dataDir: temp.dir });
  const reports = Array.from({ length: 400 }, (_, i) =>
    makeReport({
      status: i % 3 ? 'triaging' : 'accepted',
      title: `Report ${i} ${'x'.repeat(300)}`,
    }),
  );
  store.db.transaction(() => {
    store.reports.upsertReports(reports);
    for (const r of reports)
      store.messages.replaceThread(r.id, [makeMessage({ body: 'y'.repeat(500) })]);
  });
  const draftId = '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b';
  const evidencePath = join(temp.dir, 'poc.txt');
  writeFileSync(evidencePath, 'GET /api/v2/invoices/1002 HTTP/1.1\r\n\r\n');
  const blob = await store.evidence.importFile(evidencePath);
  store.db.transaction(() => {
    store.drafts.setContent(draftId, 'acme-web', typed);
    const fileId = '0e6a2a8e-8c1d-4a59-9b1f-2f4f7c2d5b10';
    store.evidence.link({
      fileId,
      reportId: draftId,
      name: 'poc.txt',
      contentType: 'text/plain',
      blob,
    });
    store.outbox.enqueue({ reportId: draftId, kind: 'save_report', payload: {} });
    store.outbox.enqueue({
      reportId: draftId,
      kind: 'upload_file',
      payload: {
        file_id: fileId,
        name: 'poc.txt',
        content_type: 'text/plain',
        size: blob.size,
        sha256: blob.sha256,
      },
    });
  });
  const replyReportId = (reports[1] as (typeof reports)[number]).id;
  store.outbox.enqueue({
    reportId: replyReportId,
    kind: 'post_message',
    payload: { body: 'Here is the PoC you asked for: https://x.example/?a=1&b=2', files: [] },
    localId: 'local-1',
    bodyHash: 'hash-1',
  });
  await new Promise((resolve) => setImmediate(resolve)); // the journal writes on the next turn
  store.close();
  return { draftId, replyReportId };
}

function openRows(store: Store): unknown[] {
  return store.outbox.list().map((e) => ({
    reportId: e.reportId,
    kind: e.kind,
    payload: e.payload,
    localId: e.localId,
    bodyHash: e.bodyHash,
  }));
}

/** Overwrites the 4 KiB page in the middle of the file with bytes SQLite cannot read. */
function garbleMiddlePage(f: string): void {
  const bytes = readFileSync(f);
  const middle = Math.floor(bytes.length / 2 / 4096) * 4096;
  for (let i = 0; i < 4096; i++) bytes[middle + i] = (i * 131 + 7) & 0xff;
  writeFileSync(f, bytes);
}

/** Each damage, and how the opening comes to read every page (or not: the size tells). */
const damages: [string, (f: string) => void, 'no check' | 'a call met it' | 'an unclean stop'][] = [
  ['truncated to half', (f) => truncateSync(f, Math.floor(readFileSync(f).length / 2)), 'no check'],
  ['garbled 4 KiB in its middle', garbleMiddlePage, 'a call met it'],
  [
    'garbled 4 KiB in its middle after an unclean stop',
    (f) => {
      garbleMiddlePage(f);
      writeFileSync(`${f}.open`, ''); // the last run's mark, never removed
    },
    'an unclean stop',
  ],
];

describe('the unsent-work journal beside the mirror', () => {
  it('holds each report with unsent work as one file, and drops it when nothing is left', async () => {
    const { draftId, replyReportId } = await mirrorWithUnsentWork();
    const names = readdirSync(unsentWorkDir(temp.dir)).sort();
    expect(names).toEqual([`${draftId}.json`, `${replyReportId}.json`].sort());
    const journal = JSON.parse(
      readFileSync(join(unsentWorkDir(temp.dir), `${draftId}.json`), 'utf8'),
    );
    expect(journal.tables.drafts[0].description).toBe(typed.description);
    expect(journal.tables.outbox.map((r: { kind: string }) => r.kind)).toEqual([
      'save_report',
      'upload_file',
    ]);

    const store = openStore({ file: temp.file, dataDir: temp.dir });
    const [reply] = store.outbox.list({ reportId: replyReportId });
    if (!reply) throw new Error('the reply is not queued');
    store.outbox.markInFlight(reply.id);
    store.outbox.markDone(reply.id);
    await new Promise((resolve) => setImmediate(resolve));
    expect(readdirSync(unsentWorkDir(temp.dir))).toEqual([`${draftId}.json`]);
    store.close();
  });
});

describe('a damaged mirror at the start', () => {
  for (const [what, damage, how] of damages) {
    it(`${what} (${how}): kept aside, a fresh mirror made, every unsent change put back once`, async () => {
      const { draftId } = await mirrorWithUnsentWork();
      const before = openStore({ file: temp.file, dataDir: temp.dir });
      const expected = openRows(before);
      before.close();
      damage(temp.file);
      const damagedHash = createHash('sha256').update(readFileSync(temp.file)).digest('hex');

      const { store, recovery } = openMirror({
        file: temp.file,
        dataDir: temp.dir,
        check: how === 'a call met it',
      });
      try {
        if (!recovery) throw new Error('the damage was not noticed');
        // The damaged file is kept, byte for byte, under a name that says so.
        expect(recovery.keptAs).toMatch(/mirror\.damaged-.*\.sqlite$/);
        const kept = createHash('sha256').update(readFileSync(recovery.keptAs)).digest('hex');
        expect(kept).toBe(damagedHash);
        expect(recovery.restored).toEqual({ reports: 2, drafts: 1, entries: 3, unreadable: 0 });
        // The mirror itself is empty again: the sync fills it from the server.
        expect(store.db.sqlite.prepare('SELECT count(*) AS n FROM reports').get()).toEqual({
          n: 0,
        });
        expect(store.drafts.get(draftId)).toMatchObject(typed);
        expect(openRows(store)).toEqual(expected);
        const files = store.evidence.listForReport(draftId);
        expect(files.map((f) => existsSync(store.evidence.blobPath(f.sha256)))).toEqual([true]);
        expect(store.db.sqlite.pragma('quick_check', { simple: true })).toBe('ok');
      } finally {
        store.close();
      }
      expect(existsSync(`${temp.file}.open`)).toBe(false);
      // The next start opens the new file as it is: nothing is restored twice.
      const again = openMirror({ file: temp.file, dataDir: temp.dir });
      expect(again.recovery).toBeNull();
      expect(openRows(again.store)).toEqual(expected);
      again.store.close();
    });
  }
});

describe('a newer app’s data', () => {
  for (const mode of ['delete', 'wal'] as const) {
    it(`(${mode} journal) is refused before anything in the folder changes`, () => {
      const raw = new Database(temp.file);
      raw.pragma(`journal_mode = ${mode}`);
      raw.exec('CREATE TABLE from_the_future (x)');
      raw.pragma(`user_version = ${migrations.length + 5}`);
      raw.close();
      const hash = (): string => createHash('sha256').update(readFileSync(temp.file)).digest('hex');
      const before = { hash: hash(), names: readdirSync(temp.dir).sort() };

      let error: unknown;
      try {
        openMirror({ file: temp.file, dataDir: temp.dir });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SchemaTooNewError);
      expect(existsSync(`${temp.file}.open`)).toBe(false);
      expect(error).toMatchObject({ found: migrations.length + 5, supported: migrations.length });
      expect({ hash: hash(), names: readdirSync(temp.dir).sort() }).toEqual(before);
      const header = readFileSync(temp.file).subarray(18, 20);
      // Bytes 18-19 of the header are the journal mode: 1 for rollback, 2 for WAL, as written.
      expect([...header]).toEqual(mode === 'wal' ? [2, 2] : [1, 1]);
    });
  }
});
