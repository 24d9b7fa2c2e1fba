/**
 * The UI bench's "before": main as it was before the engine left it, with the engine on its own thread. A
 * child process of bench/ui.ts, so that the process playing today's main holds no engine,
 * no store and none of their garbage (a 17.9 ms major collection of that mixed heap once showed
 * as main's stall). It also seeds the mirrors (that needs the engine too). Asked over its IPC
 * channel `{ id, op, args }`, it answers `{ id, ok, value | error }`; the stalls it measures are
 * its own event loop's, and bench/ui.ts adds the witness's over the same spans.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../src/engine/commands';
import { KeychainSecretStore } from '../src/engine/secrets';
import type { Store } from '../src/engine/store';
import { oldListReports } from './old-read-model';
import { newAccount } from './sandbox-control';
import { seedMirror } from './seed';
import { StallMonitor } from './stall-monitor';
import {
  OLD_RUNS,
  PROGRAM,
  timeCallSet,
  timeMirror,
  type Drain,
  type Mirror,
  type Watch,
} from './ui-calls';

const UNLIMITED = 1_000_000_000;

const watch: Watch = async (fn) => {
  const { value, stalls } = await new StallMonitor().during(fn);
  return { value, stalls: { ...stalls, witness: Number.NaN, unshared: Number.NaN } };
};

function inProcessEngine(dataDir: string, budgetLimit = UNLIMITED): Engine {
  return new Engine({
    dataDir,
    secrets: new KeychainSecretStore(),
    autoStart: false,
    budgetLimit,
    cadences: { afterActionMs: 10 * 60_000 },
  });
}

/** Queues every report for the search index again, as right after writing them all. */
function requeueIndex(store: Store): void {
  store.db.sqlite.exec(`
    INSERT INTO reports_fts (reports_fts) VALUES ('delete-all');
    INSERT INTO reports_fts_pending (seq, indexed) SELECT seq, 0 FROM reports WHERE true
      ON CONFLICT (seq) DO UPDATE SET indexed = 0;`);
}

/**
 * The old drain: batches of 1,000, one per turn of this thread's event loop, with FTS5 merging
 * inside the batches (its default until migration 9). The index is left merged as the new drain
 * leaves it, so that the figures after it do not pay for this one's segments.
 */
async function oldDrain(store: Store): Promise<Drain> {
  store.searchIndex.stop();
  const automerge = (n: number) =>
    store.db.sqlite.exec(`INSERT INTO reports_fts (reports_fts, rank) VALUES ('automerge', ${n})`);
  automerge(4);
  const t0 = performance.now();
  const { stalls } = await watch(async () => {
    while (store.searchIndex.indexBatch(1_000) > 0) {
      await new Promise((resolve) => setImmediate(resolve));
    }
  });
  const ms = performance.now() - t0;
  automerge(0);
  store.searchIndex.flush();
  return { ms, stalls };
}

const ops = {
  /** Signs in with an engine on this thread, mirrors the programs and adds `n` reports. */
  async seed({ sandboxUrl, n }: { sandboxUrl: string; n: number }): Promise<string> {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-ui-'));
    const { key } = await newAccount(sandboxUrl, 0);
    const engine = inProcessEngine(dataDir);
    await engine.connect({ serverUrl: sandboxUrl, apiKey: key });
    await engine.session.syncNow(['programs', 'account']);
    await engine.close();
    await seedMirror(dataDir, n);
    return dataDir;
  },

  /**
   * The calls as main made them before the engine left it (the list through the old read model), and at
   * 100,000 reports the old drain of the whole index; the report ids and the draft the calls
   * after it use too.
   */
  async before({ dataDir, n }: { dataDir: string; n: number }) {
    const engine = inProcessEngine(dataDir);
    await engine.open();
    try {
      const store = engine.session.store;
      await store.searchIndex.idle();
      const ids = store.reportList
        .page({ limit: 500, offset: Math.floor(n / 3) })
        .rows.map((r) => r.id);
      const draftId = (await engine.calls.createDraft(PROGRAM)).reportId;
      const calls = await timeCallSet(watch, n, OLD_RUNS(n), draftId, {
        list: (query) => oldListReports(store, query),
        open: (i) => engine.calls.getReport(ids[i % ids.length] as string),
        save: (id, content) => engine.calls.saveDraft(id, content),
      });
      let drain: Drain | null = null;
      // BENCH_UI_DRAIN=1: at every size (a quick run that still watches main during a drain).
      if (n >= 100_000 || process.env['BENCH_UI_DRAIN'] === '1') {
        requeueIndex(store);
        drain = await oldDrain(store);
      }
      return { calls, drain, ids, draftId };
    } finally {
      await engine.close();
    }
  },

  /** Queues the whole index of the account under `dataDir` again (no engine running). */
  async requeue({ dataDir }: { dataDir: string }): Promise<null> {
    const engine = inProcessEngine(dataDir);
    await engine.open();
    engine.session.store.searchIndex.stop();
    requeueIndex(engine.session.store);
    await engine.close();
    return null;
  },

  /** The initial mirror of `reports` with the engine on this thread. */
  async mirror({ sandboxUrl, reports }: { sandboxUrl: string; reports: number }): Promise<Mirror> {
    const { key } = await newAccount(sandboxUrl, reports);
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-ui-mirror-'));
    const engine = inProcessEngine(dataDir);
    try {
      await engine.connect({ serverUrl: sandboxUrl, apiKey: key });
      // The pass lists; a large account's reports follow in the background mirror.
      const { after: _, ...mirror } = await timeMirror(watch, sandboxUrl, async () => {
        await engine.calls.syncNow();
        await engine.session.mirrorIdle();
      });
      return mirror;
    } finally {
      await engine.signOut();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

export type OldMainOps = typeof ops;

process.on('message', (raw) => {
  const { id, op, args } = raw as { id: number; op: keyof OldMainOps; args: never };
  const run = ops[op] as (a: never) => Promise<unknown>;
  run(args).then(
    (value) => process.send?.({ id, ok: true, value }),
    (error: unknown) =>
      process.send?.({
        id,
        ok: false,
        error: error instanceof Error ? error.stack : String(error),
      }),
  );
});
process.on('disconnect', () => process.exit(0));
