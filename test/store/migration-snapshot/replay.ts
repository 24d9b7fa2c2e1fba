import type Database from 'better-sqlite3';
import { openSqlite } from '../../../src/engine/store/sqlite-binding';

/** What a step leaves behind, as a file of an older app would hold it. */
export interface StepSnapshot {
  version: number;
  /** Every SQL text the step handed SQLite (exec and prepare), in order. */
  statements: string[];
  /** `sqlite_master` after the step: type, name, tbl_name, sql. */
  schema: [string, string, string, string | null][];
  /** Each ordinary table's rows after the step (the FTS5 shadow tables left out). */
  rows: Record<string, unknown[]>;
}

interface Step {
  version: number;
  up(sqlite: Database.Database): void;
}

/**
 * Applies `steps` one by one to a new in-memory file that holds rows written at version 1 (so
 * the data-moving steps move something) and records each step's statements, schema and rows.
 */
export function replayMigrations(steps: readonly Step[]): StepSnapshot[] {
  const sqlite = openSqlite(':memory:');
  try {
    const snapshots: StepSnapshot[] = [];
    for (const step of steps) {
      const statements: string[] = [];
      sqlite.transaction(() => step.up(recording(sqlite, statements))).immediate();
      if (step.version === 1) seedVersion1(sqlite);
      snapshots.push({
        version: step.version,
        statements,
        schema: schema(sqlite),
        rows: rows(sqlite),
      });
    }
    return snapshots;
  } finally {
    sqlite.close();
  }
}

/** The connection, with every SQL text it is given written to `statements`. */
function recording(sqlite: Database.Database, statements: string[]): Database.Database {
  return new Proxy(sqlite, {
    get(target, property) {
      if (property === 'exec' || property === 'prepare') {
        return (sql: string) => {
          statements.push(sql);
          return property === 'exec' ? target.exec(sql) : target.prepare(sql);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}

function schema(sqlite: Database.Database): StepSnapshot['schema'] {
  return sqlite
    .prepare<[], { type: string; name: string; tbl_name: string; sql: string | null }>(
      'SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name',
    )
    .all()
    .map((row) => [row.type, row.name, row.tbl_name, row.sql]);
}

const FTS5_SHADOW = /_fts_(data|idx|docsize|config|content)$/;

function rows(sqlite: Database.Database): StepSnapshot['rows'] {
  const tables = sqlite
    .prepare<[], { name: string }>(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'
       ORDER BY name`,
    )
    .all()
    .map((row) => row.name)
    .filter((name) => !FTS5_SHADOW.test(name));
  return Object.fromEntries(
    tables.map((name) => [name, sqlite.prepare(`SELECT * FROM "${name}" ORDER BY 1, 2`).all()]),
  );
}

/**
 * Rows a version-1 file could hold: reports with documents and threads, a draft with a conflict
 * in the old shape, a queued draft save, the inbox's threads read as one JSON object.
 */
function seedVersion1(sqlite: Database.Database): void {
  const at = '2026-01-02T03:04:05.000Z';
  const program = (seq: number, id: string, name: string): void => {
    const summary = { id, name, customer_name: `${name} Inc`, summary: `About ${name}` };
    sqlite
      .prepare(
        `INSERT INTO programs (seq, id, name, intake, private, pool_paused, demo, policy_version,
           updated_at, updated_ms, summary_json, program_json, listed_at)
         VALUES (?, ?, ?, 'open', 0, 0, 0, 1, ?, ?, ?, ?, ?)`,
      )
      .run(
        seq,
        id,
        name,
        at,
        Date.parse(at),
        JSON.stringify(summary),
        JSON.stringify({ ...summary, scope: 'api.example', rules: 'be kind' }),
        at,
      );
  };
  program(1, 'p1', 'Acme');
  program(2, 'p2', 'Globex');
  const report = (
    seq: number,
    id: string,
    programId: string,
    status: string,
    updatedMs: number,
    document: Record<string, unknown> | null,
  ): void => {
    sqlite
      .prepare(
        `INSERT INTO reports (seq, id, program_id, program_name, status, display_status, title,
           revision, updated_at, updated_ms, has_full)
         VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)`,
      )
      .run(
        seq,
        id,
        programId,
        programId === 'p1' ? 'Acme' : 'Globex',
        status,
        status,
        `Title of ${id}`,
        new Date(updatedMs).toISOString(),
        updatedMs,
        document ? 1 : 0,
      );
    if (document) {
      sqlite
        .prepare('INSERT INTO report_documents (seq, report_json) VALUES (?, ?)')
        .run(seq, JSON.stringify({ id, ...document }));
    }
  };
  report(1, 'r1', 'p1', 'triaged', 1_700_000_000_000, {
    description: 'SQL injection in login',
    asset: 'login.example',
    cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
  });
  report(2, 'r2', 'p2', 'needs_info', 1_750_000_000_000, {
    description: 'Open redirect',
    asset: 'www.example',
    cvss_vector: 'not a vector',
  });
  report(3, 'r3', 'p1', 'draft', 1_760_000_000_000, null);
  report(4, 'r4', 'p2', 'some_new_status', 1_600_000_000_000, { description: 'XSS' });
  const message = (reportId: string, id: string, position: number, author: string): void => {
    sqlite
      .prepare(
        `INSERT INTO messages (report_id, id, position, author, body, at, attachments_json,
           fingerprint) VALUES (?, ?, ?, ?, ?, ?, '[]', ?)`,
      )
      .run(reportId, id, position, author, `${author} says ${id}`, at, `fp-${id}`);
  };
  message('r1', 'm1', 0, 'researcher');
  message('r1', 'm2', 1, 'agent');
  message('r1', 'm3', 2, 'founder');
  message('r2', 'm4', 0, 'agent');
  message('r4', 'm5', 0, 'researcher');
  sqlite
    .prepare(
      `INSERT INTO drafts (report_id, program_id, title, asset, description, cvss_vector,
         base_json, base_revision, conflict_json, local_only, updated_at)
       VALUES ('r3', 'p1', 'Mine', 'a', 'd', 'CVSS:3.1/AV:N/AC:H/PR:L/UI:R/S:U/C:L/I:N/A:N',
         ?, 2, ?, 0, ?)`,
    )
    .run(
      JSON.stringify({ title: 'Old', asset: 'a', description: 'd', cvss_vector: '' }),
      JSON.stringify({ title: { local: 'Mine', remote: 'Theirs' } }),
      at,
    );
  const enqueue = sqlite.prepare(
    `INSERT INTO outbox (report_id, kind, payload_json, state, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  enqueue.run('r3', 'save_draft', '{"title":"Mine"}', 'pending', at, at);
  enqueue.run('r1', 'post_message', '{"body":"hi"}', 'done', at, at);
  sqlite
    .prepare(`INSERT INTO sync_state (name, value_json, updated_at) VALUES (?, ?, ?)`)
    .run('inbox.thread_seen', JSON.stringify({ r1: 1, r2: 0, bad: 'x' }), at);
}
