import { describe, expect, it } from 'vitest';
import { migrations, openDatabase, openStore } from '../../src/engine/store';
import { useTempStore } from './fixtures';

const t = useTempStore();

describe('migration 3: one vocabulary', () => {
  it('renames queued draft saves, drops their unused payload and reshapes conflicts', () => {
    const file = `${t.file}.v2`;
    const v2 = openDatabase(file, { migrations: migrations.slice(0, 2) });
    const at = '2026-01-01T00:00:00.000Z';
    const insert = v2.sqlite.prepare(
      `INSERT INTO outbox (report_id, kind, payload_json, state, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    insert.run('r1', 'save_draft', '{"program_id":"p","title":"t"}', 'done', at, at);
    insert.run('r1', 'upload_file', '{"file_id":"f1"}', 'pending', at, at);
    insert.run('r1', 'save_draft', '{"program_id":"p","title":"t2"}', 'parked', at, at);
    v2.sqlite.prepare('DELETE FROM outbox WHERE id = 3').run();
    v2.sqlite
      .prepare(
        `INSERT INTO drafts (report_id, program_id, title, asset, description, cvss_vector,
           base_json, base_revision, conflict_json, local_only, updated_at)
         VALUES ('r1', 'p', 'mine', 'a', 'd', '', ?, 4, ?, 0, ?)`,
      )
      .run(
        JSON.stringify({ title: 'old', asset: 'a', description: 'd', cvss_vector: '' }),
        JSON.stringify({
          title: { local: 'mine', remote: 'theirs' },
          description: { local: 'D1', remote: 'D2', base: 'D0' },
        }),
        at,
      );
    v2.close();

    const store = openStore({ file, dataDir: t.dir });
    try {
      expect(store.db.schemaVersion()).toBe(migrations.length);
      const entries = store.outbox.list({ includeDone: true });
      expect(entries.map((e) => [e.id, e.kind, e.payload])).toEqual([
        [1, 'save_report', {}],
        [2, 'upload_file', { file_id: 'f1' }],
      ]);
      // The AUTOINCREMENT counter survives the copy: a deleted id is never handed out again.
      expect(store.outbox.enqueue({ reportId: 'r2', kind: 'withdraw', payload: {} }).id).toBe(4);
      expect(store.drafts.get('r1')?.conflict).toEqual({
        title: { base: 'old', ours: 'mine', theirs: 'theirs' },
        description: { base: 'D0', ours: 'D1', theirs: 'D2' },
      });
    } finally {
      store.close();
    }
  });
});
