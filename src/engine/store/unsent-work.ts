/**
 * The researcher's unsent work kept apart from the mirror. The mirror is a cache the server can
 * rebuild; a local draft, the queued writes (the outbox) and the evidence not yet uploaded cannot
 * be rebuilt. Each report that holds such work has one small JSON file beside the mirror
 * (`<account dir>/unsent/<report id>.json`), written again after every change to its rows and
 * removed when nothing of it is left unsent. When the mirror is found damaged, a fresh mirror is
 * made and these files put back (`restoreUnsentWork`); the evidence bytes already live in files of
 * their own (`evidence/<aa>/<sha256>`).
 *
 * Why files beside the mirror and not a second database: the drafts, the outbox and the evidence
 * are joined with the mirror's rows by the reports list and kept by its triggers, so moving them
 * out would rewrite most of the store; a journal of whole rows needs no change to any query, is
 * read only after damage, and is one plain file per report that a damaged page of the mirror
 * cannot reach. The changes are seen by TEMP triggers (connection-only, never written into the
 * file), which call back into JavaScript; the files are written on the next turn, after the write
 * that changed them has committed.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Db } from './database';

/** Tables holding a report's local work, in the order a restore inserts them (blobs first). */
const TABLES = ['evidence_blobs', 'drafts', 'evidence', 'sync_state', 'outbox'] as const;
type Table = (typeof TABLES)[number];

/**
 * `sync_state` entries that belong to one report's unsent work: the saves sent without an answer
 * (outbox/reconcile.ts), the credential findings kept on purpose (engine/secret-commands.ts) and
 * the policy version a draft was started under (engine/local-drafts.ts).
 */
const PER_REPORT_STATE = ['outbox.sent.', 'secret-keeps:', 'draft_policy_version.'] as const;

const FORMAT = 1;
const RETRY_MS = 2_000;

interface Snapshot {
  format: number;
  reportId: string;
  writtenAt: string;
  tables: Partial<Record<Table, Record<string, unknown>[]>>;
}

export interface UnsentWorkJournal {
  /** Writes the files of the reports changed since the last flush (also runs on its own). */
  flush(): void;
  /** Reports whose file could not be written yet (a full disk); retried on their own. */
  pending(): number;
  stop(): void;
}

export interface RestoredWork {
  reports: number;
  drafts: number;
  /** Queued writes put back (they are sent once, as after any restart). */
  entries: number;
  /** Files that could not be read (each names its report id in the count only). */
  unreadable: number;
}

/**
 * Starts keeping the journal of `db` in `dir`. Every report with unsent work is written once now
 * (an older version kept no journal), and files of reports with none left are removed.
 */
export function journalUnsentWork(db: Db, dir: string): UnsentWorkJournal {
  const { sqlite } = db;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const rows = selectors(db);
  const dirty = new Set<string>();
  let soon: NodeJS.Immediate | null = null;
  let retry: NodeJS.Timeout | null = null;
  let stopped = false;

  const schedule = (): void => {
    if (stopped || soon) return;
    soon = setImmediate(() => {
      soon = null;
      flush();
    });
  };
  sqlite.function('bounty_desk_unsent_changed', { deterministic: false }, (reportId: unknown) => {
    if (typeof reportId === 'string') {
      dirty.add(reportId);
      schedule();
    }
    return null;
  });
  createTriggers(db);

  function flush(): void {
    if (stopped || !sqlite.open) return;
    for (const reportId of [...dirty]) {
      try {
        writeSnapshot(dir, reportId, rows(reportId));
        dirty.delete(reportId);
      } catch {
        // A full disk (or the folder gone): keep it dirty and try again shortly.
        if (!retry && !stopped) {
          retry = setTimeout(() => {
            retry = null;
            flush();
          }, RETRY_MS);
          retry.unref();
        }
        return;
      }
    }
  }

  // Every report with work now, and the files of reports without any go.
  for (const id of reportsWithWork(db)) dirty.add(id);
  const wanted = new Set([...dirty].map(fileName));
  for (const name of safeList(dir)) {
    if (name.endsWith('.json') && !wanted.has(name)) rmSync(join(dir, name), { force: true });
  }
  flush();

  return {
    flush,
    pending: () => dirty.size,
    stop() {
      stopped = true;
      if (soon) clearImmediate(soon);
      if (retry) clearTimeout(retry);
      soon = null;
      retry = null;
      if (sqlite.open) dropTriggers(db);
    },
  };
}

/**
 * Puts the journal's work back into a fresh mirror, in one transaction: the drafts as they were,
 * every open outbox entry (with its thread mark, so a message whose answer was lost is looked for
 * in the thread before it is sent again) and the evidence rows. Rows of an older format keep the
 * columns the table still has.
 */
export function restoreUnsentWork(db: Db, dir: string): RestoredWork {
  const restored: RestoredWork = { reports: 0, drafts: 0, entries: 0, unreadable: 0 };
  const snapshots: Snapshot[] = [];
  for (const name of safeList(dir)) {
    if (!name.endsWith('.json')) continue;
    try {
      const parsed = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Snapshot;
      if (typeof parsed.reportId !== 'string' || typeof parsed.tables !== 'object') throw 0;
      snapshots.push(parsed);
    } catch {
      restored.unreadable++;
    }
  }
  const columns = new Map<Table, Set<string>>(
    TABLES.map((table) => [
      table,
      new Set((db.sqlite.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name)),
    ]),
  );
  db.transaction(() => {
    for (const snapshot of snapshots) {
      let any = false;
      for (const table of TABLES) {
        for (const row of snapshot.tables[table] ?? []) {
          if (table === 'outbox' && row.state === 'done') continue;
          const known = Object.keys(row).filter((c) => columns.get(table)?.has(c));
          if (known.length === 0) continue;
          const sql = `INSERT OR IGNORE INTO ${table} (${known.map((c) => `"${c}"`).join(', ')})
            VALUES (${known.map(() => '?').join(', ')})`;
          const changes = db.sqlite.prepare(sql).run(...known.map((c) => toSql(row[c]))).changes;
          if (changes === 0) continue;
          any = true;
          if (table === 'drafts') restored.drafts++;
          if (table === 'outbox') restored.entries++;
        }
      }
      if (any) restored.reports++;
    }
  });
  return restored;
}

function selectors(db: Db): (reportId: string) => Snapshot['tables'] {
  const { sqlite } = db;
  const drafts = sqlite.prepare('SELECT * FROM drafts WHERE report_id = ?');
  const outbox = sqlite.prepare(
    "SELECT * FROM outbox WHERE report_id = ? AND state <> 'done' ORDER BY id",
  );
  const evidence = sqlite.prepare('SELECT * FROM evidence WHERE report_id = ?');
  const blobs = sqlite.prepare(
    'SELECT * FROM evidence_blobs WHERE sha256 IN (SELECT sha256 FROM evidence WHERE report_id = ?)',
  );
  const state = sqlite.prepare(
    `SELECT * FROM sync_state WHERE name IN (${PER_REPORT_STATE.map(() => '? || ?').join(', ')})`,
  );
  return (reportId) => {
    const tables: Snapshot['tables'] = {
      drafts: drafts.all(reportId) as Record<string, unknown>[],
      outbox: outbox.all(reportId) as Record<string, unknown>[],
      evidence: evidence.all(reportId) as Record<string, unknown>[],
    };
    // Evidence and kept state alone are not unsent work: without a draft or a queued write the
    // server holds everything (an uploaded file of a submitted report, say).
    if (tables.drafts?.length === 0 && tables.outbox?.length === 0) return {};
    tables.evidence_blobs = blobs.all(reportId) as Record<string, unknown>[];
    tables.sync_state = state.all(
      ...PER_REPORT_STATE.flatMap((prefix) => [prefix, reportId]),
    ) as Record<string, unknown>[];
    return tables;
  };
}

function reportsWithWork(db: Db): string[] {
  return db.sqlite
    .prepare<[], { report_id: string }>(
      `SELECT report_id FROM drafts UNION SELECT report_id FROM outbox WHERE state <> 'done'`,
    )
    .all()
    .map((row) => row.report_id);
}

function writeSnapshot(dir: string, reportId: string, tables: Snapshot['tables']): void {
  const file = join(dir, fileName(reportId));
  if (Object.keys(tables).length === 0) {
    rmSync(file, { force: true });
    return;
  }
  const snapshot: Snapshot = {
    format: FORMAT,
    reportId,
    writtenAt: new Date().toISOString(),
    tables,
  };
  const tmp = `${file}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify(snapshot), { mode: 0o600 });
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

/** Report ids are UUIDs; anything else is hashed so that no id can name a path. */
function fileName(reportId: string): string {
  const safe = /^[0-9a-f-]{1,64}$/i.test(reportId)
    ? reportId
    : createHash('sha256').update(reportId).digest('hex');
  return `${safe}.json`;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function toSql(value: unknown): unknown {
  return value === undefined || (typeof value === 'object' && value !== null)
    ? JSON.stringify(value)
    : value;
}

const TRIGGERS: [name: string, table: string, when: string | null, id: string][] = [
  ...(['drafts', 'outbox', 'evidence'] as const).flatMap(
    (table): [string, string, string | null, string][] => [
      [`${table}_insert`, table, null, 'new.report_id'],
      [`${table}_update`, table, null, 'new.report_id'],
      [`${table}_delete`, table, null, 'old.report_id'],
    ],
  ),
  ...PER_REPORT_STATE.flatMap((prefix, i): [string, string, string, string][] =>
    (['insert', 'update', 'delete'] as const).map((op) => {
      const row = op === 'delete' ? 'old' : 'new';
      return [
        `state${i}_${op}`,
        'sync_state',
        `substr(${row}.name, 1, ${prefix.length}) = '${prefix}'`,
        `substr(${row}.name, ${prefix.length + 1})`,
      ];
    }),
  ),
];

function createTriggers(db: Db): void {
  const sql = TRIGGERS.map(([name, table, when, id]) => {
    const op = name.slice(name.lastIndexOf('_') + 1).toUpperCase();
    return `CREATE TEMP TRIGGER IF NOT EXISTS unsent_${name} AFTER ${op} ON main.${table}
      ${when ? `WHEN ${when}` : ''} BEGIN SELECT bounty_desk_unsent_changed(${id}); END;`;
  });
  db.sqlite.exec(sql.join('\n'));
}

function dropTriggers(db: Db): void {
  db.sqlite.exec(TRIGGERS.map(([name]) => `DROP TRIGGER IF EXISTS temp.unsent_${name};`).join(''));
}
