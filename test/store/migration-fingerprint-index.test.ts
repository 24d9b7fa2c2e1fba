import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrations, openStore } from '../../src/engine/store';
import { makeMessage, makeReport, useTempStore } from './fixtures';

const t = useTempStore();

/** Every message row, in a stable order. */
const rows = (sqlite: Database.Database) =>
  sqlite.prepare('SELECT * FROM messages ORDER BY report_id, id').all();

const indexes = (sqlite: Database.Database) =>
  sqlite
    .prepare<[], string>(
      "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'messages'",
    )
    .pluck()
    .all();

describe('migration 15: the unused message fingerprint index', () => {
  it('drops the index and keeps every message row as it was', () => {
    // A mirror as version 14 left it, with threads written by the store's own writes.
    const file = join(t.dir, 'v14.sqlite');
    const older = openStore({ file, dataDir: t.dir, migrations: migrations.slice(0, 14) });
    const reports = Array.from({ length: 30 }, (_, i) =>
      makeReport({
        status: 'triaging',
        updated_at: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
      }),
    );
    older.reports.upsertReports(reports);
    for (const [i, report] of reports.entries()) {
      older.messages.replaceThread(
        report.id,
        Array.from({ length: 1 + (i % 4) }, (_, k) =>
          makeMessage({ body: `Message ${k} of ${i}` }),
        ),
      );
    }
    const before = rows(older.db.sqlite);
    // 1 to 4 messages a report.
    expect(before.length).toBe(reports.reduce((n, _, i) => n + 1 + (i % 4), 0));
    expect(indexes(older.db.sqlite)).toContain('messages_by_fingerprint');
    older.close();

    const now = openStore({ file, dataDir: t.dir });
    try {
      expect(now.db.schemaVersion()).toBe(migrations.length);
      expect(indexes(now.db.sqlite)).not.toContain('messages_by_fingerprint');
      expect(rows(now.db.sqlite)).toEqual(before);
      expect(now.db.sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
      // The threads read back whole through the store.
      for (const report of reports)
        expect(now.messages.listThread(report.id).length).toBeGreaterThan(0);
    } finally {
      now.close();
    }
  });
});
