/**
 * The report search index's SQL, written once and used by every step that makes or remakes it.
 * The text is what SQLite stores in users' `sqlite_master`, so a change here changes released
 * steps (test/store/migrations-unchanged.test.ts fails): a new shape is a new step that uses it.
 */

// Diacritics folded ("café" finds "cafe"). The report index has no prefix index: it doubled the
// cost of a bulk write, and prefix queries over one account's reports stay fast without it.
export const ftsOptions = `content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2'`;

/**
 * The index's columns in order, each with its text in `report_fts_source`. FTS5 cannot add a
 * column, so a step that adds one remakes the index with the columns up to the new one.
 */
const columns = [
  { name: 'title', source: 'r.title' },
  {
    name: 'description',
    source: `coalesce(json_extract(d.report_json, '$.description'), '') AS description`,
  },
  {
    name: 'messages',
    source: `coalesce((SELECT group_concat(body, char(10)) FROM messages m WHERE m.report_id = r.id), '')
    AS messages`,
  },
  {
    name: 'facets',
    source: `'s' || lower(hex(r.status)) || ' p' || lower(hex(r.program_id)) AS facets`,
  },
  { name: 'asset', source: `coalesce(json_extract(d.report_json, '$.asset'), '') AS asset` },
] as const;

export type ReportIndexColumn = (typeof columns)[number]['name'];

function upTo(last: ReportIndexColumn): (typeof columns)[number][] {
  return columns.slice(0, columns.findIndex((column) => column.name === last) + 1);
}

/** `CREATE VIRTUAL TABLE reports_fts` with the columns up to `last`. */
export function createReportIndex(last: ReportIndexColumn): string {
  const names = upTo(last).map((column) => column.name);
  // The five-column steps broke the line before the options; SQLite keeps the text as written.
  const beforeOptions = names.length > 4 ? ',\n  ' : ', ';
  return `CREATE VIRTUAL TABLE reports_fts USING fts5 (${names.join(', ')}${beforeOptions}${ftsOptions});`;
}

/**
 * The view the indexer reads each report's columns from, up to `last`. `document` is the SQL of a
 * report's JSON text: the stored column itself before migration 16, its decoding since.
 */
export function createReportIndexSource(
  last: ReportIndexColumn,
  document = 'd.report_json',
): string {
  const [title, ...rest] = upTo(last).map((column) =>
    column.source.replaceAll('d.report_json', document),
  );
  return `CREATE VIEW report_fts_source AS
SELECT r.seq, r.id, ${title ?? ''},
  ${rest.join(',\n  ')}
FROM reports r LEFT JOIN report_documents d ON d.seq = r.seq;`;
}

// Merge a segment away once half its rows are deleted (default 10%): see migration 2.
export const deleteMergeAtHalf = `INSERT INTO reports_fts (reports_fts, rank) VALUES ('deletemerge', 50);`;
// Segments merged in steps of the indexer's own (fts-index.ts): see migration 9.
export const noAutomerge = `INSERT INTO reports_fts (reports_fts, rank) VALUES ('automerge', 0);`;

/** Drops the index and makes it again with the columns up to `last` and its merge settings. */
export function remakeReportIndex(last: ReportIndexColumn): string {
  return `DROP TABLE reports_fts;
${createReportIndex(last)}
${deleteMergeAtHalf}
${noAutomerge}`;
}

/**
 * Queues the report whose seq is `seq` (`indexed` 1: an older version is in the index). ON
 * CONFLICT DO NOTHING keeps a queued row's flag (inside a trigger, an OR IGNORE / OR REPLACE
 * would be overridden by the outer statement's conflict policy).
 */
export function queueReport(seq: string, indexed: 0 | 1): string {
  return `INSERT INTO reports_fts_pending (seq, indexed) VALUES (${seq}, ${indexed})
  ON CONFLICT (seq) DO NOTHING;`;
}

/** Queues the report with id `reportId` (a message's), whose older version is in the index. */
export function queueReportOf(reportId: string): string {
  return `INSERT INTO reports_fts_pending (seq, indexed)
  SELECT seq, 1 FROM reports WHERE id = ${reportId}
  ON CONFLICT (seq) DO NOTHING;`;
}

/** Every report queued as never indexed: the index was made again, empty. */
export const requeueEveryReport = `DELETE FROM reports_fts_pending;
INSERT INTO reports_fts_pending (seq, indexed) SELECT seq, 0 FROM reports;`;

/** The index and the view it reads made again with the columns up to `last`. */
export function remakeReportIndexAndSource(last: ReportIndexColumn): string {
  return `${remakeReportIndex(last)}

DROP VIEW report_fts_source;
${createReportIndexSource(last)}`;
}

/** A trigger that queues the report (`new.seq`, an older version indexed) after an update. */
export function requeueOnUpdate(trigger: string, after: string, when: string): string {
  return `CREATE TRIGGER ${trigger} AFTER ${after}
WHEN ${when} BEGIN
  ${queueReport('new.seq', 1)}
END;`;
}
