import { join } from 'node:path';
import type { SaveDialog } from './download';

export interface ExportPayoutsDeps {
  engine: { exportPayouts(destination: string): Promise<{ savedTo: string }> };
  dialog: SaveDialog;
  /** The folder the dialog opens in (the OS downloads folder). */
  downloadsDir: string;
  now?: () => Date;
}

/** "Export CSV" on the Payouts screen: the user picks where, the engine writes. Null if cancelled. */
export async function exportPayoutsWithDialog(
  deps: ExportPayoutsDeps,
): Promise<{ savedTo: string } | null> {
  const day = (deps.now?.() ?? new Date()).toISOString().slice(0, 10);
  const choice = await deps.dialog.showSaveDialog({
    title: 'Export payouts',
    defaultPath: join(deps.downloadsDir, `payouts-${day}.csv`),
    buttonLabel: 'Export',
    properties: ['showOverwriteConfirmation'],
  });
  if (choice.canceled || !choice.filePath) return null;
  return deps.engine.exportPayouts(choice.filePath);
}
