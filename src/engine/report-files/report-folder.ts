/**
 * A report as a folder of files (`report.md`, `thread.md`, `files/`): the names and the pure
 * text of each, shared by the export command and the command line. Nothing here reads the mirror.
 */
import type { Message } from '@shared/api';
import type { ReportDetailView } from '@shared/bridge/views';
import { parseCvss31 } from '@shared/rules/cvss';
import { authorName, readableUtc } from '@shared/words/authors';
import type { ReportFrontMatter } from './front-matter';

/** The files of one report folder: `report.md`, `thread.md` and `files/`. */
export const REPORT_FILE = 'report.md';
export const THREAD_FILE = 'thread.md';
export const FILES_DIR = 'files';

/** What the front matter says of a report (shared with the import's round-trip test). */
export function frontMatterOf(
  detail: ReportDetailView,
  programName: string | undefined,
): ReportFrontMatter {
  const report = detail.report;
  const content = detail.draft?.content ?? {
    title: report?.title ?? '',
    asset: report?.asset ?? '',
    description: report?.description ?? '',
    cvss_vector: report?.cvss_vector ?? '',
  };
  const cvss = content.cvss_vector ? parseCvss31(content.cvss_vector) : null;
  const meta: ReportFrontMatter = {
    report_id: detail.id,
    program: detail.draft?.programId ?? report?.program_id ?? '',
    title: content.title,
    asset: content.asset,
    cvss_vector: content.cvss_vector,
    cvss_score: cvss?.ok ? cvss.baseScore : null,
    status: report?.status ?? 'draft',
    created_at: report?.created_at ?? null,
    updated_at: report?.updated_at ?? null,
    submitted_at: report?.submitted_at ?? null,
  };
  const name = report?.program_name ?? programName;
  if (name) meta.program_name = name;
  return meta;
}

/** The thread as Markdown: one section per message, its files linked beside the report. */
export function threadMarkdown(
  meta: ReportFrontMatter,
  messages: readonly Message[],
  pathOf: (fileId: string) => string | null,
): string {
  const head = `# Thread: ${meta.title || '(untitled)'}\n\nReport ${meta.report_id ?? ''}`;
  if (messages.length === 0) return `${head}\n\nNo messages.\n`;
  const parts = messages.map((m) => {
    const files = m.attachments.map((f) => {
      const path = pathOf(f.id);
      const label = f.name.replace(/[[\]\\]/g, '\\$&');
      return path ? `- [${label}](${path})` : `- ${label} (not exported)`;
    });
    const body = m.body.trim() === '' ? '_(no text)_' : m.body;
    // Who in words and when as a person reads it; the file is for reading, never read back.
    return [
      `## ${authorName(m.author)} · ${readableUtc(m.at)}`,
      '',
      body,
      ...(files.length ? ['', ...files] : []),
    ].join('\n');
  });
  return `${head}\n\n${parts.join('\n\n---\n\n')}\n`;
}
