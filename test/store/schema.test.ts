import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { redactKeys } from '../../src/shared/api/redact';
import { makeReport, useTempStore } from './fixtures';

// Shaped like a real key: prefix, underscore, 43 characters.
const FAKE_KEY = `sbx_${'A1b2C3d4E5'.repeat(4)}xyz`;

const t = useTempStore();

describe('secrets never reach the database', () => {
  it('no column anywhere is meant to hold a key, token, secret or password', () => {
    const sqlite = t.store.db.sqlite;
    const tables = sqlite
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'",
      )
      .all();
    const columns = tables.flatMap(({ name }) =>
      (sqlite.pragma(`table_info(${JSON.stringify(name)})`) as { name: string }[]).map(
        (c) => `${name}.${c.name}`,
      ),
    );
    expect(columns.length).toBeGreaterThan(50);
    const suspicious = columns.filter((c) =>
      /(api_?key|secret|token|passw|bearer|credential|auth(?!or))/i.test(c),
    );
    expect(suspicious).toEqual([]);
    // The only "key" column is the scope (read/write), constrained to those two values.
    expect(columns.filter((c) => /key/i.test(c))).toEqual(['account.key_scope']);
    expect(() =>
      sqlite.prepare('INSERT INTO account (singleton, key_scope) VALUES (1, ?)').run(FAKE_KEY),
    ).toThrow(/CHECK constraint/);
  });

  it('scrubs key-shaped strings and bearer headers from free-form text', () => {
    expect(redactKeys(`failed with ${FAKE_KEY}.`)).toBe('failed with [redacted].');
    expect(redactKeys('Authorization: Bearer abc.def.ghi')).toBe(
      'Authorization: Bearer [redacted]',
    );
    // Not key-shaped: a sha256 after an underscore is longer than 43 characters.
    const digest = `file_${'a'.repeat(64)}`;
    expect(redactKeys(digest)).toBe(digest);
  });

  it('errors and sync state quoting a key are stored without it, even in the raw file', () => {
    const { outbox, syncState, reports } = t.store;
    reports.upsertReports([makeReport()]);
    const entry = outbox.enqueue({ reportId: 'r1', kind: 'submit', payload: {} });
    outbox.retryLater(entry.id, 0, { message: `401 for Bearer ${FAKE_KEY}`, key: FAKE_KEY });
    outbox.park(entry.id, new Error(`key ${FAKE_KEY} rejected`).message);
    syncState.set('last_failure', { header: `Authorization: Bearer ${FAKE_KEY}` });
    expect(JSON.stringify(outbox.get(entry.id))).not.toContain(FAKE_KEY);
    expect(JSON.stringify(syncState.get('last_failure'))).not.toContain(FAKE_KEY);

    t.store.db.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    t.store.close();
    const bytes = readFileSync(t.file).toString('latin1');
    expect(bytes).toContain('[redacted]');
    expect(bytes).not.toContain(FAKE_KEY);
    t.reopen();
  });
});
