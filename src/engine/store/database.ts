import { existsSync, rmSync, statSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { migrations as defaultMigrations, type Migration } from './migrations';
import { registerReportDocumentFunction } from './report-document';
import { openSqlite } from './sqlite-binding';
import { asDamaged, DamagedDatabaseError, storageProblem } from './storage-errors';
import { ENGINE_CODES } from '@shared/errors/error-data';

/** One open SQLite file (one per account), with the schema at the latest version. */
export interface Db {
  readonly file: string;
  readonly sqlite: Database.Database;
  /** Runs `fn` in one write transaction (BEGIN IMMEDIATE, so a writer never upgrades mid-way). */
  transaction<T>(fn: () => T): T;
  /** Calls `listener` after each outermost `transaction` commits; returns the unsubscribe. */
  onCommit(listener: () => void): () => void;
  schemaVersion(): number;
  close(): void;
}

export interface OpenOptions {
  /** Replaces the app's migration list; tests use it to exercise failing or extra steps. */
  migrations?: readonly Migration[];
  /** How long a writer waits for another connection's lock before SQLITE_BUSY. */
  busyTimeoutMs?: number;
  /**
   * Run `PRAGMA quick_check` on an existing file before using it: every page is read (about 40 ms
   * a MiB), so the mirror asks for it only after a run that did not end cleanly or a call that
   * met a damaged page. Without it the opening still reads the header, the schema and the size.
   */
  check?: boolean;
}

export class SchemaTooNewError extends Error {
  readonly code = ENGINE_CODES.newerData;
  constructor(
    readonly found: number,
    readonly supported: number,
  ) {
    super(`database schema version ${found} is newer than this app supports (${supported})`);
    this.name = 'SchemaTooNewError';
  }
}

/**
 * Opens `file` at the latest schema. Before anything is changed (the journal mode included) the
 * file's version is read on a read-only connection: a newer app's file is refused untouched
 * (SchemaTooNewError), and one that SQLite cannot read is reported as DamagedDatabaseError.
 */
export function openDatabase(file: string, options: OpenOptions = {}): Db {
  const steps = options.migrations ?? defaultMigrations;
  if (existsSync(file)) inspect(file, steps.length, options.check === true);
  const sqlite = openSqlite(file);
  try {
    configure(sqlite, options.busyTimeoutMs ?? 5000);
    migrate(sqlite, steps);
  } catch (error) {
    sqlite.close();
    throw asDamaged(file, error);
  }
  const commitListeners = new Set<() => void>();
  return {
    file,
    sqlite,
    transaction: <T>(fn: () => T): T => {
      const outermost = !sqlite.inTransaction;
      const result = sqlite.transaction(fn).immediate();
      if (outermost) for (const listener of commitListeners) listener();
      return result;
    },
    onCommit(listener) {
      commitListeners.add(listener);
      return () => commitListeners.delete(listener);
    },
    schemaVersion: () => userVersion(sqlite),
    close: () => {
      if (!sqlite.open) return;
      // Cheap on close and keeps the planner's statistics fresh for the next start. It reads the
      // file: a damaged page or a full disk must not keep the connection open (the damaged file
      // is then set aside under the session that replaces this one).
      try {
        sqlite.pragma('optimize');
      } catch (error) {
        if (!storageProblem(error)) throw error;
      } finally {
        sqlite.close();
      }
    },
  };
}

/**
 * Reads the version (and, when asked, checks every page) on a read-only connection, which never
 * writes, checkpoints or switches the journal: a newer app's file stays byte for byte as it was.
 */
function inspect(file: string, latest: number, check: boolean): void {
  // A read-only reader of a WAL file makes empty -wal and -shm files when there were none: they go
  // again afterwards, so the folder is left as it was found.
  const made = ['-wal', '-shm'].map((suffix) => `${file}${suffix}`).filter((f) => !existsSync(f));
  let reader: Database.Database | null = null;
  try {
    reader = openSqlite(file, { readonly: true, fileMustExist: true });
    const found = userVersion(reader);
    if (found > latest) throw new SchemaTooNewError(found, latest);
    reader.prepare('SELECT count(*) FROM sqlite_schema').get();
    // A file cut short: without a WAL holding later pages, the header's page count must fit.
    const wal = `${file}-wal`;
    if (!existsSync(wal) || statSync(wal).size === 0) {
      const pages = Number(reader.pragma('page_count', { simple: true }));
      const pageSize = Number(reader.pragma('page_size', { simple: true }));
      if (pages * pageSize > statSync(file).size) {
        throw new DamagedDatabaseError(file, 'the file is shorter than its header says');
      }
    }
    if (check) {
      const result = reader.pragma('quick_check(1)', { simple: true });
      if (result !== 'ok') throw new DamagedDatabaseError(file, String(result));
    }
  } catch (error) {
    throw asDamaged(file, error);
  } finally {
    reader?.close();
    if (made.every((f) => !existsSync(f) || statSync(f).size === 0 || f.endsWith('-shm'))) {
      for (const f of made) rmSync(f, { force: true });
    }
  }
}

/**
 * The page size of a new mirror. A report's JSON document (about 2.3 KB) fills a 4 KiB page
 * alone, so the default left 1.8 KB of each page empty: 8.7 KB a report on disk in all at 10,000
 * reports, 6.5 KB with 16 KiB pages (6.8 KB with 8 KiB). Fixed when the file is made: WAL mode
 * cannot change it afterwards (only a VACUUM outside WAL), so an existing mirror keeps its own.
 */
export const NEW_MIRROR_PAGE_SIZE = 16_384;

function configure(sqlite: Database.Database, busyTimeoutMs: number): void {
  sqlite.pragma(`busy_timeout = ${Math.max(0, Math.trunc(busyTimeoutMs))}`);
  // Before the journal mode and the first table: a page size only applies to an empty file.
  if (Number(sqlite.pragma('page_count', { simple: true })) === 0) {
    sqlite.pragma(`page_size = ${NEW_MIRROR_PAGE_SIZE}`);
  }
  const mode = sqlite.pragma('journal_mode = WAL', { simple: true });
  if (mode !== 'wal') throw new Error(`could not switch the database to WAL (got ${String(mode)})`);
  // NORMAL is durable across application crashes in WAL mode; only a power loss may drop the
  // last transactions, which the sync and the outbox can repeat.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('temp_store = MEMORY');
  // 8 MiB of page cache (default 2 MiB). Weighed by bench/ui.ts, one engine per size on copies of
  // one 10,000-report mirror, the same list calls in turn: every list call's p95 26 ms at 8 MiB,
  // 29 ms at 32 MiB, 34 ms at 2 MiB (load average 12); 32 MiB filled up during a mirror and cost
  // the engine 24 MB more for nothing faster.
  sqlite.pragma('cache_size = -8192');
  // Before the migrations: the search index's view and triggers read documents through it.
  registerReportDocumentFunction(sqlite);
}

function userVersion(sqlite: Database.Database): number {
  return Number(sqlite.pragma('user_version', { simple: true }));
}

/** Forward-only: each pending step runs with its version bump in one transaction. */
function migrate(sqlite: Database.Database, steps: readonly Migration[]): void {
  const ordered = [...steps].sort((a, b) => a.version - b.version);
  ordered.forEach((step, index) => {
    if (step.version !== index + 1) {
      throw new Error(`migrations must be numbered 1..n without gaps (found ${step.version})`);
    }
  });
  const latest = ordered.length;
  const current = userVersion(sqlite);
  if (current > latest) throw new SchemaTooNewError(current, latest);
  for (const step of ordered.slice(current)) {
    sqlite
      .transaction(() => {
        step.up(sqlite);
        sqlite.pragma(`user_version = ${step.version}`);
      })
      .immediate();
  }
}
