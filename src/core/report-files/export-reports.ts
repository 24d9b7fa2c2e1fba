import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Message } from '../../shared/api';
import type {
  ExportedReportView,
  ExportReportsResult,
} from '../../shared/bridge/report-file-views';
import type { ReportDetailView } from '../../shared/bridge/views';
import { parseCvss31 } from '../../shared/rules/cvss';
import { authorName, readableUtc } from '../../shared/words/authors';
import { USER, type SessionContext } from '../engine/session-context';
import { formatReportFile, type ReportFrontMatter } from './front-matter';
import { encodeRelativePath, linksToRelative } from './links';
import { folderName, uniqueName } from './names';

/** The files of one report folder: `report.md`, `thread.md` and `files/`. */
export const REPORT_FILE = 'report.md';
export const THREAD_FILE = 'thread.md';
export const FILES_DIR = 'files';

type ExportedReport = ExportedReportView;
type ExportResult = ExportReportsResult;

/** One file of a report: its name, and where its bytes come from. */
interface FileSource {
  fileId: string;
  name: string;
}

/**
 * Writes each report as a folder under `destination`: `report.md` (front matter and the
 * description as written, file links made relative), `thread.md` (the messages) and `files/` with
 * the evidence as the service received it: the engine's cleaned copy (metadata removed, redacted),
 * else the server's file. The user's originals are never read.
 */
export async function exportReports(
  ctx: SessionContext,
  detailOf: (reportId: string) => ReportDetailView | null,
  reportIds: readonly string[],
  destination: string,
): Promise<ExportResult> {
  const details = reportIds.map((id) => {
    const detail = detailOf(id);
    if (!detail || (!detail.report && !detail.draft)) {
      throw new Error(`Report ${id} is not in the offline copy; open it once, then export.`);
    }
    return detail;
  });
  await mkdir(destination, { recursive: true });
  const taken = new Set<string>();
  const reports: ExportedReport[] = [];
  for (const detail of details) {
    reports.push(await exportOne(ctx, detail, destination, taken));
  }
  return { savedTo: destination, reports };
}

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

async function exportOne(
  ctx: SessionContext,
  detail: ReportDetailView,
  destination: string,
  taken: Set<string>,
): Promise<ExportedReport> {
  const { store } = ctx;
  const programId = detail.draft?.programId ?? detail.report?.program_id ?? '';
  const meta = frontMatterOf(detail, store.programs.getSummary(programId)?.name);
  const folder = join(destination, uniqueName(folderName(meta.title, detail.id), taken));
  await mkdir(join(folder, FILES_DIR), { recursive: true });

  const paths = new Map<string, string>();
  const names = new Set<string>();
  const missing: string[] = [];
  for (const file of filesOf(detail)) {
    const name = uniqueName(file.name, names);
    const target = join(folder, FILES_DIR, name);
    if (await writeEvidence(ctx, detail.id, file.fileId, target)) {
      paths.set(file.fileId, encodeRelativePath(`${FILES_DIR}/${name}`));
    } else {
      names.delete(name.toLowerCase());
      missing.push(file.name);
    }
  }
  const pathOf = (fileId: string): string | null => paths.get(fileId) ?? null;
  const description = linksToRelative(
    detail.draft?.content.description ?? detail.report?.description ?? '',
    pathOf,
  );
  await writeFile(join(folder, REPORT_FILE), formatReportFile(meta, description));
  await writeFile(join(folder, THREAD_FILE), threadMarkdown(meta, detail.messages, pathOf));
  return { reportId: detail.id, folder, files: paths.size, missing };
}

/** Every file of the report: the draft's evidence, the server's attachments, message files. */
function filesOf(detail: ReportDetailView): FileSource[] {
  const seen = new Map<string, FileSource>();
  for (const e of detail.evidence) seen.set(e.fileId, { fileId: e.fileId, name: e.name });
  for (const [fileId, a] of Object.entries(detail.report?.attachments ?? {})) {
    if (!seen.has(fileId)) seen.set(fileId, { fileId, name: a.name });
  }
  for (const m of detail.messages) {
    for (const f of m.attachments) {
      if (!seen.has(f.id)) seen.set(f.id, { fileId: f.id, name: f.name });
    }
  }
  return [...seen.values()];
}

/** The engine's own copy when it has one (what was uploaded), else the server's. */
async function writeEvidence(
  ctx: SessionContext,
  reportId: string,
  fileId: string,
  target: string,
): Promise<boolean> {
  const local = ctx.store.evidence.get(fileId);
  if (local) {
    try {
      await copyFile(ctx.store.evidence.blobPath(local.sha256), target);
      return true;
    } catch {
      // The copy was collected after its upload: the server has it.
    }
  }
  try {
    await ctx.api.downloadFile(reportId, fileId, target, USER);
    return true;
  } catch {
    return false;
  }
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
