import type { MenuItemConstructorOptions } from 'electron';

/** The parts of Electron's `Tray` and `Menu` used here. */
export interface TrayLike {
  setToolTip(text: string): void;
  setContextMenu(menu: unknown): void;
  on(event: 'click', listener: () => void): unknown;
  destroy(): void;
}

export interface TrayDeps {
  makeTray(iconPath: string): TrayLike;
  buildMenu(template: MenuItemConstructorOptions[]): unknown;
  iconPath: string;
  open(): void;
  syncNow(): void;
}

export function trayTooltip(unsent: number): string {
  if (unsent <= 0) return 'Bounty Desk';
  return `Bounty Desk: ${unsent} unsent ${unsent === 1 ? 'change' : 'changes'}`;
}

/** The tray icon: "Open" and "Sync now", the unsent count in its tooltip. */
export function createTray(deps: TrayDeps): { setUnsent(n: number): void; destroy(): void } {
  const tray = deps.makeTray(deps.iconPath);
  tray.setContextMenu(
    deps.buildMenu([
      { label: 'Open', click: () => deps.open() },
      { label: 'Sync now', click: () => deps.syncNow() },
    ]),
  );
  tray.on('click', () => deps.open());
  let shown = -1;
  const setUnsent = (n: number): void => {
    if (n === shown) return;
    shown = n;
    tray.setToolTip(trayTooltip(n));
  };
  setUnsent(0);
  let destroyed = false;
  const destroy = (): void => {
    if (destroyed) return;
    destroyed = true;
    tray.destroy();
  };
  return { setUnsent, destroy };
}
