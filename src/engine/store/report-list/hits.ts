import type { Db } from '../database';
import type { ReportFacets } from '../report-facets';
import { seqOfKeySql } from '../report-index-key';
import { facetedSearchParams, type ReportSearch } from '../report-search';

/**
 * The reports a search matches with the list's filter (status, program), as a table of their
 * rowids (`temp.report_hits_<n>`, in memory, private to this connection) that the list's count
 * and page both read. Before it, the list's
 * count, the count of a filtered search and its page each ran the search again as an IN list
 * (25,000 hits at 100,000 reports: three passes over the index, 11 ms with a status filter).
 *
 * The set is kept for the next call while nothing was written: a list scrolled through a search,
 * or read again after an event, does not search again. "Nothing written" is this connection's
 * `total_changes()` without the set's own writes, and `data_version` for other connections'
 * commits (the index's drain, drafts and the queue all write through this connection). Inside a
 * transaction the set is always filled afresh: a rollback would take its rows away.
 */
export interface ReportHits {
  /**
   * Fills the set for `search` and `facets` (unless it holds it already); returns how many
   * reports match. The index's hits are filtered by the facets it holds (report-facets.ts); those
   * of reports queued for it are exact only when the search left them out (`skipQueued`).
   */
  load(search: ReportSearch, facets: ReportFacets): number;
  /** The SQL condition "report `alias` matches the loaded search (and facets)". */
  condition(alias: string): string;
  /**
   * The data's version: rows this connection wrote (without the set's own) and other
   * connections' commits. A key for any cache of what the mirror holds.
   */
  version(): string;
  /**
   * What the set holds (the search and the version of the data), for what is kept with it; null
   * when it is not kept (filled inside a transaction).
   */
  heldKey(): string | null;
}

let tables = 0;

export function createReportHits(db: Db): ReportHits {
  const sqlite = db.sqlite;
  // One table per repository: two on one connection must not share rows.
  const table = `temp.report_hits_${++tables}`;
  sqlite.exec(`CREATE TABLE IF NOT EXISTS ${table} (seq INTEGER PRIMARY KEY) WITHOUT ROWID`);
  const clear = sqlite.prepare(`DELETE FROM ${table}`);
  // The index's hits, minus the queued rows it holds an older version of, plus the rows matched
  // without it (queued rows and drafts, filtered here; OR IGNORE: a draft's report may be a hit
  // already).
  const fillHits = sqlite.prepare<{
    fts: string;
    skipQueued: number;
    extra: string;
    statuses: string;
    program: string | null;
  }>(
    `INSERT OR IGNORE INTO ${table} (seq)
     SELECT ${seqOfKeySql('rowid')} FROM reports_fts WHERE reports_fts MATCH @fts
       AND NOT (@skipQueued AND ${seqOfKeySql('rowid')} IN (SELECT seq FROM reports_fts_pending))
     UNION ALL SELECT k.seq FROM json_each(@extra) e CROSS JOIN reports k ON k.seq = e.value
       WHERE (@statuses = '[]' OR k.status IN (SELECT value FROM json_each(@statuses)))
         AND (@program IS NULL OR k.program_id = @program)`,
  );
  const count = sqlite.prepare<[], number>(`SELECT count(*) FROM ${table}`).pluck();
  const totalChanges = sqlite.prepare<[], number>('SELECT total_changes()').pluck();
  const dataVersion = sqlite.prepare<[], number>('PRAGMA data_version').pluck();
  let own = 0;
  let held: { key: string; count: number } | null = null;

  const version = (): string => `${(totalChanges.get() ?? 0) - own}:${dataVersion.get() ?? 0}`;

  return {
    load(search, facets) {
      const fill = facetedSearchParams(search, facets);
      const key = [
        fill.fts,
        fill.skipQueued,
        fill.extra,
        fill.statuses,
        fill.program,
        version(),
      ].join('\u0000');
      if (held?.key === key && !sqlite.inTransaction) return held.count;
      const before = totalChanges.get() ?? 0;
      clear.run();
      fillHits.run(fill);
      own += (totalChanges.get() ?? 0) - before;
      const n = count.get() ?? 0;
      held = sqlite.inTransaction ? null : { key, count: n };
      return n;
    },
    condition: (alias) => `${alias}.seq IN ${table}`,
    version,
    heldKey: () => held?.key ?? null,
  };
}
