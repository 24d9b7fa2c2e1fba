/**
 * The triggers that move a `change_counters` row (migrations 5, 6, 8, 13), written once. The text
 * is what users' `sqlite_master` holds: test/store/migrations-unchanged.test.ts holds it as released.
 */

/** `AFTER …` event of the trigger, with its `WHEN` condition when there is one. */
export interface CounterEvent {
  trigger: string;
  after: string;
  when?: string;
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
