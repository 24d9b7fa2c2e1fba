import type { Db } from './database';

/**
 * Counters the triggers of migrations 5 and 13 bump when what a derived view reads changes, so the view
 * can be kept until then. Reading one is a single-row lookup.
 */
export interface ChangeCounters {
  /** Messages, the reports' status, title, update time and needs_info seen, the threads read. */
  inbox(): number;
  /** Reports listed or dropped, stored in full, gone stale or current, their status. */
  mirror(): number;
}

export function createChangeCounters(db: Db): ChangeCounters {
  const read = db.sqlite
    .prepare<[string], number>('SELECT n FROM change_counters WHERE name = ?')
    .pluck();
  return { inbox: () => read.get('inbox') ?? 0, mirror: () => read.get('mirror') ?? 0 };
}
