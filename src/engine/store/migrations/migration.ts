import type Database from 'better-sqlite3';

/**
 * One forward-only schema step. Version N is the Nth step of `index.ts`; `PRAGMA user_version`
 * records the last applied step. Never edit a released step: add a new one.
 *
 * Secrets policy: no table has a column for the API key or any other credential. The account
 * table keeps only the key's scope; `test/store/schema.test.ts` checks every column name.
 */
export interface Migration {
  version: number;
  name: string;
  up(sqlite: Database.Database): void;
}

/** A step that is one SQL script, as most are. */
export function sqlStep(version: number, name: string, sql: string): Migration {
  return { version, name, up: (sqlite) => sqlite.exec(sql) };
}
