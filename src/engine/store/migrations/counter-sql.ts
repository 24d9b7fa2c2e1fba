/**
 * The triggers that move a `change_counters` row (migrations 5, 6, 8, 13), written once. The text
 * is what users' `sqlite_master` holds: test/store/migrations-unchanged.test.ts holds it as released.
 */

/** `AFTER …` event of the trigger, with its `WHEN` condition when there is one. */
export interface CounterEvent {
  trigger: string;
  after: string;
  when?: string | undefined;
}

/** A trigger that adds one to the counter `counter` after the event. */
export function bumpCounter(counter: string, { trigger, after, when }: CounterEvent): string {
  const condition = when === undefined ? '' : `\nWHEN ${when}`;
  return `CREATE TRIGGER ${trigger} AFTER ${after}${condition} BEGIN
  UPDATE change_counters SET n = n + 1 WHERE name = '${counter}';
END;`;
}

/** One such trigger per event, one line after the other. */
export function bumpCounterOn(counter: string, events: readonly CounterEvent[]): string {
  return events.map((event) => bumpCounter(counter, event)).join('\n');
}

/**
 * The three triggers `<prefix>_insert`, `_delete` and `_update` that move the counter when a row of
 * `table` is added, removed, or updated (`update`: `OF …` columns and/or `WHEN` condition).
 */
export function bumpCounterOnRows(
  counter: string,
  prefix: string,
  table: string,
  update: { of?: string; when?: string },
): string {
  const of = update.of === undefined ? '' : ` OF ${update.of}`;
  return bumpCounterOn(counter, [
    { trigger: `${prefix}_insert`, after: `INSERT ON ${table}` },
    { trigger: `${prefix}_delete`, after: `DELETE ON ${table}` },
    { trigger: `${prefix}_update`, after: `UPDATE${of} ON ${table}`, when: update.when },
  ]);
}
