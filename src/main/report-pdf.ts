import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReportDetailView } from '@shared/bridge/views';
import { safeFileName } from '@shared/rules/safe-file-name';
import type { SaveDialog } from './download';

export interface ReportPdfDeps {
  engine: { getReport(reportId: string): Promise<ReportDetailView | null> };
  dialog: SaveDialog;
  /** The folder the dialog opens in (the OS downloads folder). */
  downloadsDir: string;
  /**
   * The app window printed by Chromium (Electron's `webContents.printToPDF`): print media shows
   * only the report's print view, which the page holds while this call runs.
   */
  printToPDF(): Promise<Uint8Array>;
}

/**
 * "Save as PDF…" on a report: the user picks where in main's dialog, then the window is printed
 * and written there (beside it first, then renamed, so a failed write never leaves half a PDF
 * under the chosen name). Null when the user cancels; nothing is printed then.
 */
export async function saveReportPdfWithDialog(
  deps: ReportPdfDeps,
  reportId: string,
): Promise<{ savedTo: string } | null> {
  const detail = await deps.engine.getReport(reportId);
  const title = detail?.draft?.content.title || detail?.report?.title || 'report';
  const choice = await deps.dialog.showSaveDialog({
    title: 'Save report as PDF',
    defaultPath: join(deps.downloadsDir, `${safeFileName(title)}.pdf`),
    buttonLabel: 'Save',
    properties: ['showOverwriteConfirmation'],
  });
  if (choice.canceled || !choice.filePath) return null;
  const pdf = await deps.printToPDF();
  const partial = `${choice.filePath}.part`;
  try {
    await writeFile(partial, pdf);
    await rename(partial, choice.filePath);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return { savedTo: choice.filePath };
}
