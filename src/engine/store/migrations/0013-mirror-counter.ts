import type { Migration } from './migration';

/**
 * The mirror's counts (listed, stored in full, current, threads to fetch) as the status bar shows
 * them: counting them reads every report (78 ms of each draft save at 100,000 reports, since every
 * save emits the status). The counter moves when what they count changes, so the counts are kept
 * until then (store/reports.ts `countMirrored`).
 */
const sql = `
INSERT INTO change_counters (name, n) VALUES ('mirror', 0);
CREATE TRIGGER mirror_changed_report_insert AFTER INSERT ON reports BEGIN
  UPDATE change_counters SET n = n + 1 WHERE name = 'mirror';
END;
CREATE TRIGGER mirror_changed_report_delete AFTER DELETE ON reports BEGIN
  UPDATE change_counters SET n = n + 1 WHERE name = 'mirror';
END;
CREATE TRIGGER mirror_changed_report_update AFTER UPDATE ON reports
WHEN new.has_full IS NOT old.has_full OR new.stale IS NOT old.stale
  OR new.status IS NOT old.status OR new.submitted_at IS NOT old.submitted_at BEGIN
  UPDATE change_counters SET n = n + 1 WHERE name = 'mirror';
END;
`;

export const mirrorCounter: Migration = {
  version: 13,
  name: 'mirror counts kept',
  up: (sqlite) => sqlite.exec(sql),
};
