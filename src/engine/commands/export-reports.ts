import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExportedReportView, ExportReportsResult } from '@shared/bridge/report-file-views';
import type { ReportDetailView } from '@shared/bridge/views';
import { USER, type SessionContext } from './session-context';
import { formatReportFile } from '../report-files/front-matter';
import { encodeRelativePath, linksToRelative } from '../report-files/links';
import { folderName, uniqueName } from '../report-files/names';
import {
  FILES_DIR,
  frontMatterOf,
  REPORT_FILE,
  THREAD_FILE,
  threadMarkdown,
} from '../report-files/report-folder';

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
