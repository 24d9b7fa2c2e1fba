/**
 * Big mirrors for the benchmarks, written directly with the store's own writes (as a sync writes
 * them, 200 reports a transaction, without the hours 100,000 reports take at the API's 120
 * requests a minute): drafts and decided reports with their threads (report-fixtures.ts). Each
 * size is written once per run, into a template file that every account needing it then gets a
 * copy of (the suites need the same mirrors); the engine that opens it next finds it as after
 * any restart, its search index drained.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../src/engine/commands';
import { KeychainSecretStore } from '../src/engine/secrets';
import { openStore } from '../src/engine/store';
import { makeReports, makeThread } from './report-fixtures';

const CHUNK = 5_000;
/** One transaction per 200 reports, as the sync writes them (5,000 at once grew with the mirror). */
const BATCH = 200;

const templates = new Map<number, Promise<string>>();
const folders: string[] = [];
process.on('exit', () => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

async function writeTemplate(reports: number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), `bench-mirror-${reports}-`));
  folders.push(dir);
  const file = join(dir, 'mirror.sqlite');
  const store = openStore({ file, dataDir: dir });
  try {
    for (let from = 0; from < reports; from += CHUNK) {
      const chunk = makeReports(Math.min(CHUNK, reports - from), from);
      for (let i = 0; i < chunk.length; i += BATCH) {
        const batch = chunk.slice(i, i + BATCH);
        store.db.transaction(() => {
          store.reports.upsertReports(batch);
          for (const report of batch) {
            store.messages.replaceThread(report.id, makeThread(report));
            // Mirrored for the first time, as a sync does: the thread so far is read.
            store.threads.start(report.id, store.threads.triage(report.id));
          }
        });
      }
    }
    await store.searchIndex.idle();
  } finally {
    store.close();
  }
  return file;
}

function template(reports: number): Promise<string> {
  let file = templates.get(reports);
  if (!file) {
    file = writeTemplate(reports);
    templates.set(reports, file);
  }
  return file;
}

/** Gives the account signed in under `dataDir` a mirror of `reports` reports (and its programs). */
export async function seedMirror(dataDir: string, reports: number): Promise<void> {
  const source = await template(reports);
  const engine = () =>
    new Engine({ dataDir, secrets: new KeychainSecretStore(), autoStart: false });
  const first = engine();
  if (!(await first.open())) throw new Error(`no account signed in under ${dataDir}`);
  const file = first.session.store.db.file;
  await first.close();
  for (const suffix of ['-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  copyFileSync(source, file);
  const again = engine();
  await again.open();
  try {
    await again.session.syncNow(['programs', 'account']);
  } finally {
    await again.close();
  }
}
