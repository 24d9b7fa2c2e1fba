/**
 * Big mirrors for the benchmarks, written directly with the store's own writes (as a sync writes
 * them, without the hours 100,000 reports take at the API's 120 requests a minute): drafts and
 * decided reports with their threads (report-fixtures.ts), into the mirror of the account signed
 * in under `dataDir`. The engine that opens it next finds it as after any restart.
 */
import { Engine } from '../src/core/engine';
import { KeytarSecretStore } from '../src/core/secrets';
import { makeReports, makeThread } from './report-fixtures';

const CHUNK = 5_000;
/** One transaction per 200 reports, as the sync writes them (5,000 at once grew with the mirror). */
const BATCH = 200;

export async function seedMirror(
  dataDir: string,
  reports: number,
  options: { drainIndex?: boolean } = {},
): Promise<void> {
  const engine = new Engine({ dataDir, secrets: new KeytarSecretStore(), autoStart: false });
  if (!(await engine.open())) throw new Error(`no account signed in under ${dataDir}`);
  try {
    const store = engine.session.store;
    for (let from = 0; from < reports; from += CHUNK) {
      const chunk = makeReports(Math.min(CHUNK, reports - from), from);
      for (let i = 0; i < chunk.length; i += BATCH) {
        const batch = chunk.slice(i, i + BATCH);
        store.db.transaction(() => {
          store.reports.upsertReports(batch);
          for (const report of batch) store.messages.replaceThread(report.id, makeThread(report));
        });
      }
    }
    if (options.drainIndex) await store.searchIndex.idle();
  } finally {
    await engine.close();
  }
}
