import { describe, expect, it, vi } from 'vitest';
import * as electron from 'electron';
import type { MenuItemConstructorOptions } from 'electron';
import { menuTemplate, type CommandName } from '../../src/main/menu';
import { createTray, trayTooltip } from '../../src/main/tray';
import type { ElectronMock } from './electron-mock';

vi.mock('electron', async () => (await import('./electron-mock')).electronMock());
const { Menu, Tray } = electron as unknown as ElectronMock;

function build(isDev: boolean) {
  const sent: CommandName[] = [];
  const other: string[] = [];
  const template = menuTemplate({
    isDev,
    isMac: false,
    command: (name) => sent.push(name),
    signOut: () => other.push('sign-out'),
    openWebsite: (page) => other.push(`website:${page}`),
    checkForUpdates: () => other.push('check-updates'),
    exportDiagnostics: () => other.push('export-diagnostics'),
    quit: () => other.push('quit'),
  });
  const menu = (label: string): MenuItemConstructorOptions[] =>
    (template.find((m) => m.label === label || (label === 'Help' && m.role === 'help'))?.submenu ??
      []) as MenuItemConstructorOptions[];
  const click = (label: string, item: string): void => {
    const found = menu(label).find((i) => i.label === item);
    if (!found?.click) throw new Error(`no ${label} > ${item}`);
    (found.click as () => void)();
  };
  return { template, menu, click, sent, other };
}

describe('application menu', () => {
  it('File: New report, Sync now, Resync everything, Sign out, Quit; the UI ones send commands', () => {
    const m = build(false);
    expect(m.template.map((x) => x.label ?? x.role)).toEqual(['File', 'Edit', 'View', 'help']);
    expect(m.menu('File').flatMap((i) => (i.label ? [i.label] : []))).toEqual([
      'New report',
      'Sync now',
      'Resync everything',
      'Sign out',
      'Quit',
    ]);
    m.click('File', 'New report');
    m.click('File', 'Sync now');
    m.click('File', 'Resync everything');
    m.click('View', 'Toggle theme');
    m.click('Edit', 'Find');
    m.click('File', 'Sign out');
    m.click('Help', 'Create API keys');
    m.click('Help', 'Check for updates…');
    m.click('Help', 'Export diagnostics…');
    m.click('File', 'Quit');
    expect(m.sent).toEqual([
      'new-report',
      'sync-now',
      'resync-everything',
      'toggle-theme',
      'focus-search',
    ]);
    expect(m.other).toEqual([
      'sign-out',
      'website:api-keys',
      'check-updates',
      'export-diagnostics',
      'quit',
    ]);
  });

  it('Edit has the standard roles; Reload and developer tools only in development', () => {
    const roles = (isDev: boolean, label: string) =>
      build(isDev)
        .menu(label)
        .flatMap((i) => (i.role ? [i.role] : []));
    expect(roles(false, 'Edit')).toEqual(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']);
    expect(roles(false, 'View')).not.toContain('reload');
    expect(roles(false, 'View')).not.toContain('toggleDevTools');
    expect(roles(true, 'View')).toEqual(expect.arrayContaining(['reload', 'toggleDevTools']));
    // Ctrl/Cmd+R is "Sync now" (docs/ui-names.md), so development Reload takes another key.
    expect(
      build(true)
        .menu('View')
        .find((i) => i.role === 'reload')?.accelerator,
    ).not.toBe('CmdOrCtrl+R');
  });
});

describe('tray', () => {
  it('offers Open and Sync now and shows the unsent count in its tooltip', () => {
    const actions: string[] = [];
    const tray = createTray({
      makeTray: (icon) => new Tray(icon),
      buildMenu: (template) => Menu.buildFromTemplate(template),
      iconPath: '/opt/app/out/main/icon.png',
      open: () => actions.push('open'),
      syncNow: () => actions.push('sync'),
    });
    const [made] = Tray.created;
    expect(made?.icon).toBe('/opt/app/out/main/icon.png');
    const items = (made?.menu as { template: MenuItemConstructorOptions[] }).template;
    expect(items.map((i) => i.label)).toEqual(['Open', 'Sync now']);
    for (const item of items) (item.click as () => void)();
    made?.listeners.get('click')?.();
    expect(actions).toEqual(['open', 'sync', 'open']);
    expect(made?.tooltip).toBe('Bounty Desk');
    tray.setUnsent(3);
    expect(made?.tooltip).toBe('Bounty Desk: 3 unsent changes');
    expect(trayTooltip(1)).toBe('Bounty Desk: 1 unsent change');
  });
});
