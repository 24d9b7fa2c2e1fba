import { vi } from 'vitest';

/**
 * Electron cannot run here (no binary): `vi.mock('electron', () => electronMock())` in a test
 * file gives the shell's modules recording stand-ins for the few Electron objects they create.
 * This is the only module the main-process tests mock; the engine and sandbox are real.
 */
export function electronMock() {
  class BrowserWindow {
    static created: BrowserWindow[] = [];
    readonly options: Record<string, unknown>;
    readonly loaded: string[] = [];
    readonly listeners = new Map<string, () => void>();
    minimized = false;
    calls: string[] = [];
    constructor(options: Record<string, unknown>) {
      this.options = options;
      BrowserWindow.created.push(this);
    }
    once(event: string, listener: () => void): void {
      this.listeners.set(event, listener);
    }
    on(event: string, listener: () => void): void {
      this.listeners.set(event, listener);
    }
    async loadFile(file: string): Promise<void> {
      this.loaded.push(file);
    }
    async loadURL(url: string): Promise<void> {
      this.loaded.push(url);
    }
    isMinimized(): boolean {
      return this.minimized;
    }
    restore(): void {
      this.calls.push('restore');
    }
    show(): void {
      this.calls.push('show');
    }
    focus(): void {
      this.calls.push('focus');
    }
    maximize(): void {
      this.calls.push('maximize');
    }
  }

  class Notification {
    static shown: Notification[] = [];
    readonly listeners = new Map<string, () => void>();
    constructor(readonly options: { title: string; body: string }) {}
    on(event: string, listener: () => void): this {
      this.listeners.set(event, listener);
      return this;
    }
    show(): void {
      Notification.shown.push(this);
    }
  }

  class Tray {
    static created: Tray[] = [];
    tooltip = '';
    menu: unknown = null;
    readonly listeners = new Map<string, () => void>();
    constructor(readonly icon: string) {
      Tray.created.push(this);
    }
    setToolTip(text: string): void {
      this.tooltip = text;
    }
    setContextMenu(menu: unknown): void {
      this.menu = menu;
    }
    on(event: string, listener: () => void): this {
      this.listeners.set(event, listener);
      return this;
    }
    destroy(): void {}
  }

  const Menu = {
    buildFromTemplate: vi.fn((template: unknown[]) => ({ template })),
    setApplicationMenu: vi.fn(),
  };

  const shell = {
    openExternal: vi.fn(async (_url: string) => undefined),
    openPath: vi.fn(async (_path: string) => ''),
    showItemInFolder: vi.fn(),
  };

  const dialog = {
    showSaveDialog: vi.fn(
      async (_options: unknown): Promise<{ canceled: boolean; filePath?: string }> => ({
        canceled: true,
      }),
    ),
  };

  return { BrowserWindow, Notification, Tray, Menu, shell, dialog };
}

export type ElectronMock = ReturnType<typeof electronMock>;
