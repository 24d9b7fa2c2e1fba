/** Reports as Markdown files, exported to and imported from the user's folders. */

export interface ExportedReportView {
  reportId: string;
  /** The report's folder (`report.md`, `thread.md`, `files/`). */
  folder: string;
  /** Evidence files written beside it. */
  files: number;
  /** Names of files that could not be had (not on this computer, server unreachable). */
  missing: string[];
}

export interface ExportReportsResult {
  savedTo: string;
  reports: ExportedReportView[];
}

/** One problem of an import: the file (relative to what was picked), its line, the field. */
export interface ImportProblemView {
  file: string;
  /** 1-based; 0 when the problem is the whole file. */
  line: number;
  field: string;
  message: string;
}

export interface ImportReportsResult {
  /** The drafts made, in the order of the files; empty when anything was wrong. */
  created: { reportId: string; title: string; file: string }[];
  /** Every problem found; when there is one, nothing was imported. */
  problems: ImportProblemView[];
}

/** What to import: main's open dialog for files or a folder, or files the user dropped. */
export type ImportReportsInput = { pick: 'files' | 'folder' } | { files: string[] };

/** A researcher's own description template (local only). */
export interface TemplateView {
  id: string;
  name: string;
  /** Markdown with placeholders: {{asset}}, {{program}}, {{program_id}}, {{title}}, {{date}}. */
  body: string;
  updatedAt: string;
  /**
   * Saving only: the files whose links were left out of the text (a template keeps text, never
   * another report's files), by name. Absent when none was.
   */
  leftOut?: string[];
  /**
   * Saving only: the credentials found in the text and replaced by `[REDACTED:<kind>]` (a
   * template is reused and shared; a live token must not travel with it), by kind and line, never
   * the value. Absent when none was.
   */
  redacted?: TemplateRedaction[];
}

/** A credential taken out of a template's text: what it was and where, never its value. */
export interface TemplateRedaction {
  /** Short kind, as written in the mark that replaced it: `[REDACTED:<kind>]`. */
  kind: string;
  /** What it is, for a person: "JSON Web Token", "Authorization header"… */
  label: string;
  /** 1-based line of the template's text. */
  line: number;
}

export interface SaveTemplateInput {
  /** Absent: a new template. */
  id?: string;
  name: string;
  body: string;
  /** A draft's text: its asset, title and program name become placeholders. */
  fromReportId?: string;
}

export interface ImportTemplatesResult {
  /** The templates made; empty when anything was wrong. */
  created: { templateId: string; name: string; file: string; redacted?: TemplateRedaction[] }[];
  problems: ImportProblemView[];
}
