import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import {
  migrations,
  NEW_MIRROR_PAGE_SIZE,
  openDatabase,
  SchemaTooNewError,
  type Migration,
} from '../../src/engine/store';
import { tempFileEachTest } from '../support/temp-dirs';

const temp = tempFileEachTest('store-db-', 'account.sqlite');

function tableNames(sqlite: Database.Database): string[] {
  return sqlite
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
    )
    .all()
    .map((row) => row.name);
}

/** A migration numbered after the shipped ones, as the next release would add it. */
function stepAfterLast(name: string, up: Migration['up']): Migration {
  return { version: migrations.length + 1, name, up };
}

describe('openDatabase', () => {
  it('creates the schema from an empty file at the latest version', () => {
    const db = openDatabase(temp.file);
    expect(db.schemaVersion()).toBe(migrations.length);
    expect(tableNames(db.sqlite)).toEqual(
      expect.arrayContaining(['reports', 'programs', 'messages', 'outbox', 'drafts', 'evidence']),
    );
    db.close();
  });

  it('re-opens an up-to-date file without running a step again', () => {
    openDatabase(temp.file).close();
    let ran = 0;
    const counting: Migration[] = migrations.map((step) => ({
      ...step,
      up: (sqlite) => {
        ran++;
        step.up(sqlite);
      },
    }));
    const db = openDatabase(temp.file, { migrations: counting });
    expect(ran).toBe(0);
    expect(db.schemaVersion()).toBe(migrations.length);
    db.close();
  });

  it('applies only the new steps of a longer list', () => {
    openDatabase(temp.file).close();
    const extra = stepAfterLast('add a note column', (sqlite) =>
      sqlite.exec('ALTER TABLE drafts ADD COLUMN note TEXT'),
    );
    const db = openDatabase(temp.file, { migrations: [...migrations, extra] });
    expect(db.schemaVersion()).toBe(migrations.length + 1);
    const columns = db.sqlite.pragma('table_info(drafts)') as { name: string }[];
    expect(columns.map((c) => c.name)).toContain('note');
    db.close();
  });

  it('rolls a failing step back entirely and keeps the previous version', () => {
    openDatabase(temp.file).close();
    const failing = stepAfterLast('half done', (sqlite) => {
      sqlite.exec('CREATE TABLE half_done (x INTEGER)');
      throw new Error('boom');
    });
    expect(() => openDatabase(temp.file, { migrations: [...migrations, failing] })).toThrow('boom');
    const raw = new Database(temp.file);
    expect(raw.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(tableNames(raw)).not.toContain('half_done');
    raw.close();
  });

  it('refuses a file written by a newer schema (forward-only)', () => {
    const raw = new Database(temp.file);
    raw.pragma(`user_version = ${migrations.length + 5}`);
    raw.close();
    expect(() => openDatabase(temp.file)).toThrow(SchemaTooNewError);
  });

  it('rejects a migration list with gaps', () => {
    const gap: Migration[] = [{ version: 2, name: 'orphan', up: () => undefined }];
    expect(() => openDatabase(temp.file, { migrations: gap })).toThrow(/without gaps/);
  });

  it('runs in WAL mode with foreign keys, busy timeout and synchronous=NORMAL', () => {
    const db = openDatabase(temp.file, { busyTimeoutMs: 1234 });
    expect(db.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.sqlite.pragma('busy_timeout', { simple: true })).toBe(1234);
    expect(db.sqlite.pragma('synchronous', { simple: true })).toBe(1);
    // The page cache is bounded in KiB (negative), at most 8 MiB of the engine's memory.
    const cache = Number(db.sqlite.pragma('cache_size', { simple: true }));
    expect(cache).toBeLessThan(0);
    expect(-cache).toBeLessThanOrEqual(8 * 1024);
    db.close();
    // WAL is a property of the file: a plain connection sees it too.
    const raw = new Database(temp.file);
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
  });

  it('makes a new mirror with larger pages, and keeps the page size of an existing one', () => {
    const db = openDatabase(temp.file);
    expect(db.sqlite.pragma('page_size', { simple: true })).toBe(NEW_MIRROR_PAGE_SIZE);
    expect(NEW_MIRROR_PAGE_SIZE).toBeGreaterThan(4096);
    db.close();

    // A mirror an older version made with SQLite's default pages, already in WAL mode.
    const older = `${temp.file}.older`;
    const raw = new Database(older);
    raw.pragma('page_size = 4096');
    raw.pragma('journal_mode = WAL');
    raw.exec("CREATE TABLE keep (v TEXT); INSERT INTO keep VALUES ('kept')");
    raw.close();
    const reopened = openDatabase(older);
    expect(reopened.sqlite.pragma('page_size', { simple: true })).toBe(4096);
    expect(reopened.sqlite.prepare('SELECT v FROM keep').pluck().get()).toBe('kept');
    expect(reopened.schemaVersion()).toBe(migrations.length);
    reopened.close();
  });

  it('passes the integrity and foreign key checks after migration', () => {
    const db = openDatabase(temp.file);
    expect(db.sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.sqlite.pragma('foreign_key_check')).toEqual([]);
    db.close();
  });

  it('lets a second connection read during a write, and makes a second writer wait then fail', () => {
    const writer = openDatabase(temp.file);
    const other = openDatabase(temp.file, { busyTimeoutMs: 50 });
    writer.sqlite.exec('BEGIN IMMEDIATE');
    writer.sqlite.prepare("INSERT INTO sync_state VALUES ('a', '1', 'now')").run();
    // WAL: the reader sees the last committed state without waiting.
    expect(other.sqlite.prepare('SELECT count(*) AS n FROM sync_state').get()).toEqual({ n: 0 });
    const started = Date.now();
    expect(() => other.transaction(() => undefined)).toThrow(/locked|busy/i);
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    writer.sqlite.exec('COMMIT');
    expect(other.sqlite.prepare('SELECT count(*) AS n FROM sync_state').get()).toEqual({ n: 1 });
    other.close();
    writer.close();
  });

  it('close is safe to call twice', () => {
    const db = openDatabase(temp.file);
    db.close();
    expect(() => db.close()).not.toThrow();
    expect(db.sqlite.open).toBe(false);
  });
});
