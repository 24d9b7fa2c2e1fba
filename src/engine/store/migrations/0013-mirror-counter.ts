import { bumpCounterOnRows } from './counter-sql';
import { sqlStep } from './migration';

/**
 * The mirror's counts (listed, stored in full, current, threads to fetch) as the status bar shows
 * them: counting them reads every report (78 ms of each draft save at 100,000 reports, since every
 * save emits the status). The counter moves when what they count changes, so the counts are kept
 * until then (store/reports.ts `countMirrored`).
 */
const sql = `
INSERT INTO change_counters (name, n) VALUES ('mirror', 0);
${bumpCounterOnRows('mirror', 'mirror_changed_report', 'reports', {
  when: `new.has_full IS NOT old.has_full OR new.stale IS NOT old.stale
  OR new.status IS NOT old.status OR new.submitted_at IS NOT old.submitted_at`,
})}
`;

export const mirrorCounter = sqlStep(13, 'mirror counts kept', sql);
