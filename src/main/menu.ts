import type { MenuItemConstructorOptions } from 'electron';
import type { BridgeEvents, WebsitePage } from '@shared/bridge/contract';

export type CommandName = BridgeEvents['command']['name'];

export interface MenuDeps {
  /** Development build: adds Reload and the developer tools. */
  isDev: boolean;
  isMac: boolean;
  /** Sends a `command` event to the renderer. */
  command(name: CommandName): void;
  signOut(): void;
  openWebsite(page: WebsitePage): void;
  /** Looks for an update now and says what it found (src/main/updates.ts). */
  checkForUpdates(): void;
  /** Writes the diagnostics bundle where the user chooses (src/main/diagnostics.ts). */
  exportDiagnostics(): void;
  quit(): void;
  /** macOS, packaged: links the `bountydesk` command into /usr/local/bin. */
  installCommand?(): void;
}

/**
 * The application menu. Items the UI acts on send a `command` event (the renderer owns the
 * screens); Sign out, the website links, updates and diagnostics are done by main. Accelerators match
 * docs/ui-names.md (Ctrl/Cmd+N new report, Ctrl/Cmd+R sync now, Ctrl/Cmd+F focus search).
 */
export function menuTemplate(deps: MenuDeps): MenuItemConstructorOptions[] {
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { label: 'New report', accelerator: 'CmdOrCtrl+N', click: () => deps.command('new-report') },
      { label: 'Sync now', accelerator: 'CmdOrCtrl+R', click: () => deps.command('sync-now') },
      { label: 'Resync everything', click: () => deps.command('resync-everything') },
      { type: 'separator' },
      { label: 'Sign out', click: () => deps.signOut() },
      { type: 'separator' },
      { label: 'Quit', accelerator: 'CmdOrCtrl+Q', click: () => deps.quit() },
    ],
  };
  const edit: MenuItemConstructorOptions = {
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'selectAll' },
      { type: 'separator' },
      { label: 'Find', accelerator: 'CmdOrCtrl+F', click: () => deps.command('focus-search') },
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      { label: 'Toggle theme', click: () => deps.command('toggle-theme') },
      ...(deps.isDev
        ? ([
            { type: 'separator' },
            { role: 'reload', accelerator: 'CmdOrCtrl+Shift+R' },
            { role: 'toggleDevTools' },
          ] satisfies MenuItemConstructorOptions[])
        : []),
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [
      { label: 'Sign up', click: () => deps.openWebsite('sign-up') },
      { label: 'Verify e-mail', click: () => deps.openWebsite('verify-email') },
      { label: 'Payment onboarding', click: () => deps.openWebsite('payment-onboarding') },
      { label: 'Create API keys', click: () => deps.openWebsite('api-keys') },
      { type: 'separator' },
      { label: 'Check for updates…', click: () => deps.checkForUpdates() },
      { label: 'Export diagnostics…', click: () => deps.exportDiagnostics() },
    ],
  };
  const install = deps.installCommand;
  if (deps.isMac && install) {
    (help.submenu as MenuItemConstructorOptions[]).push(
      { type: 'separator' },
      { label: 'Install ‘bountydesk’ command in PATH…', click: () => install() },
    );
  }
  const app: MenuItemConstructorOptions[] = deps.isMac ? [{ role: 'appMenu' }] : [];
  return [...app, file, edit, view, help];
}
