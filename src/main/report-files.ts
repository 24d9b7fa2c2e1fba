import type { EngineCalls } from '@engine/commands/engine';
import type { ExportReportsResult, ImportReportsInput } from '@shared/bridge/report-file-views';
import { BridgeInputError } from './errors';
import type { FileTokens } from './file-tokens';

/** The part of Electron's `dialog` that picks a folder or report files. */
export interface FolderDialog {
  showOpenDialog(options: {
    title: string;
    buttonLabel: string;
    defaultPath?: string;
    properties: ('openFile' | 'openDirectory' | 'multiSelections' | 'createDirectory')[];
    filters?: { name: string; extensions: string[] }[];
  }): Promise<{ canceled: boolean; filePaths: string[] }>;
}

export interface ReportFilesDeps {
  engine: EngineCalls;
  dialog: FolderDialog;
  files: FileTokens;
  /** Where the dialogs open (the OS documents or downloads folder). */
  downloadsDir: string;
}

/**
 * "Export as Markdown": the user picks the folder in main's dialog, the engine writes a
 * folder per report into it. Null when cancelled.
 */
export async function exportReportsWithDialog(
  deps: ReportFilesDeps,
  reportIds: string[],
): Promise<ExportReportsResult | null> {
  const folder = await exportFolder(
    deps,
    reportIds.length === 1 ? 'Export report to a folder' : 'Export reports to a folder',
  );
  return folder ? deps.engine.exportReports(reportIds, folder) : null;
}

/**
 * "Import Markdown" of reports or templates: files or a folder the user picked in main's dialog,
 * or files they dropped (tokens), handed to `run`. Nothing is read before the user chose it; null
 * when cancelled.
 */
export async function importWithDialog<T>(
  deps: ReportFilesDeps,
  input: ImportReportsInput,
  what: 'reports' | 'templates',
  run: (paths: string[]) => Promise<T>,
): Promise<T | null> {
  const paths = await pickedPaths(deps, input, what);
  return paths ? run(paths) : null;
}

/** The templates as Markdown files in a folder the user picks. */
export async function exportTemplatesWithDialog(
  deps: ReportFilesDeps,
): Promise<{ savedTo: string; count: number } | null> {
  const folder = await exportFolder(deps, 'Export templates to a folder');
  return folder ? deps.engine.exportTemplates(folder) : null;
}

/** The folder the user picks (or makes) in main's dialog to export into; null when cancelled. */
async function exportFolder(deps: ReportFilesDeps, title: string): Promise<string | null> {
  const choice = await deps.dialog.showOpenDialog({
    title,
    buttonLabel: 'Export here',
    defaultPath: deps.downloadsDir,
    properties: ['openDirectory', 'createDirectory'],
  });
  const folder = choice.filePaths[0];
  return choice.canceled || !folder ? null : folder;
}

/** The paths behind dropped files' tokens, or those picked in main's open dialog (null: cancel). */
async function pickedPaths(
  deps: ReportFilesDeps,
  input: ImportReportsInput,
  what: 'reports' | 'templates',
): Promise<string[] | null> {
  const pick = 'pick' in input ? input.pick : undefined;
  const tokens = 'files' in input ? input.files : undefined;
  if ((pick === undefined) === (tokens === undefined)) {
    throw new BridgeInputError('give either "pick" or "files"', 'pick');
  }
  if (tokens) {
    if (tokens.length === 0) throw new BridgeInputError('files: none given', 'files');
    return tokens.map((token) => deps.files.resolve(token));
  }
  const folder = pick === 'folder';
  const choice = await deps.dialog.showOpenDialog({
    title: folder ? `Import a folder of ${what}` : `Import ${what} (Markdown files)`,
    buttonLabel: 'Import',
    defaultPath: deps.downloadsDir,
    properties: folder ? ['openDirectory'] : ['openFile', 'multiSelections'],
    ...(folder ? {} : { filters: [{ name: 'Markdown', extensions: ['md', 'markdown'] }] }),
  });
  if (choice.canceled || choice.filePaths.length === 0) return null;
  return choice.filePaths;
}
