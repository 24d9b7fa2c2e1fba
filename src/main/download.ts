import { safeFileName } from '@shared/rules/safe-file-name';
import { join } from 'node:path';
import type { ReportDetailView } from '@shared/bridge/views';

/** The part of Electron's `dialog` the download uses. */
export interface SaveDialog {
  showSaveDialog(options: {
    title: string;
    defaultPath: string;
    buttonLabel: string;
    properties: 'showOverwriteConfirmation'[];
  }): Promise<{ canceled: boolean; filePath?: string }>;
}

export interface DownloadDeps {
  engine: {
    getReport(reportId: string): Promise<ReportDetailView | null>;
    downloadFile(
      reportId: string,
      fileId: string,
      destination: string,
    ): Promise<{ savedTo: string }>;
  };
  dialog: SaveDialog;
  /** The folder the dialog opens in (the OS downloads folder). */
  downloadsDir: string;
}

/**
 * "Download <file name>": the user picks where the evidence goes, the engine streams it there.
 * The file is never opened, previewed or executed. Null when the user cancels.
 */
export async function downloadWithDialog(
  deps: DownloadDeps,
  reportId: string,
  fileId: string,
): Promise<{ savedTo: string } | null> {
  const detail = await deps.engine.getReport(reportId);
  const name = safeFileName(attachmentName(detail, fileId) ?? 'attachment');
  const choice = await deps.dialog.showSaveDialog({
    title: 'Save attachment',
    defaultPath: join(deps.downloadsDir, name),
    buttonLabel: 'Save',
    properties: ['showOverwriteConfirmation'],
  });
  if (choice.canceled || !choice.filePath) return null;
  return deps.engine.downloadFile(reportId, fileId, choice.filePath);
}

/** The attachment's name wherever the report knows it: files, submission, messages, evidence. */
export function attachmentName(detail: ReportDetailView | null, fileId: string): string | null {
  if (!detail) return null;
  const report = detail.report;
  return (
    report?.attachments[fileId]?.name ??
    report?.submission?.attachments[fileId]?.name ??
    detail.messages.flatMap((m) => m.attachments).find((f) => f.id === fileId)?.name ??
    detail.evidence.find((e) => e.fileId === fileId)?.name ??
    null
  );
}
