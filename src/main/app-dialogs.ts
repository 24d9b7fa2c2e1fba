/**
 * main's own message boxes and file dialogs, on the app window when there is one (a sheet on
 * macOS) and free-standing when there is none.
 */
import { dialog, type BrowserWindow } from 'electron';
import type { BridgeCallDeps } from './bridge-calls';
import { exportDiagnostics, type DiagnosticsDeps } from './diagnostics';
import type { Ask } from './window';

type CurrentWindow = () => BrowserWindow | null;

export function askOn(window: CurrentWindow): Ask {
  return async (options) => {
    const box = { type: 'info' as const, ...options };
    const win = window();
    const parent = win && !win.isDestroyed() ? win : null;
    return (await (parent ? dialog.showMessageBox(parent, box) : dialog.showMessageBox(box)))
      .response;
  };
}

/** Save and open dialogs on the window, as the bridge calls and the diagnostics export use them. */
export function fileDialogsOn(window: CurrentWindow): BridgeCallDeps['dialog'] {
  return {
    showSaveDialog: (options) => {
      const win = window();
      return win ? dialog.showSaveDialog(win, options) : dialog.showSaveDialog(options);
    },
    showOpenDialog: (options) => {
      const win = window();
      return win ? dialog.showOpenDialog(win, options) : dialog.showOpenDialog(options);
    },
  };
}

/** Sign out asks first: the key leaves the keychain, while drafts and the outbox stay. */
export async function confirmSignOut(): Promise<boolean> {
  const answer = await dialog.showMessageBox({
    type: 'question',
    buttons: ['Sign out', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
    message: 'Sign out of Bounty Desk?',
    detail:
      'The API key is removed from the keychain. Drafts and unsent changes stay on this computer.',
  });
  return answer.response === 0;
}

/** Writes the diagnostics bundle, then says where it is and what it holds. */
export async function saveDiagnostics(
  deps: DiagnosticsDeps,
  ask: Ask,
  showItemInFolder: (path: string) => void,
): Promise<void> {
  const path = await exportDiagnostics(deps);
  if (!path) return;
  const answer = await ask({
    message: 'Diagnostics saved.',
    detail: `${path}\nIt holds versions, settings, outbox counts and the logs: no key and no report content. Read it before you send it.`,
    buttons: ['Show in folder', 'OK'],
    defaultId: 1,
    cancelId: 1,
  });
  if (answer === 0) showItemInFolder(path);
}
