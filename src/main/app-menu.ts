/**
 * The application menu as main builds it once the app is ready: the template (menu.ts) with what
 * each item does, and on a packaged macOS app the item that links the `bountydesk` command.
 */
import { execFile } from 'node:child_process';
import { rm, symlink } from 'node:fs/promises';
import { promisify } from 'node:util';
import { Menu } from 'electron';
import { installCommand } from './install-command';
import { menuTemplate, type MenuDeps } from './menu';
import type { Ask } from './window';

const execFileAsync = promisify(execFile);

export interface AppMenuDeps extends Omit<MenuDeps, 'isMac' | 'installCommand'> {
  platform: NodeJS.Platform;
  isPackaged: boolean;
  /** `process.resourcesPath`: where the packaged app keeps the command's launcher. */
  resourcesPath: string;
  ask: Ask;
}

export function setApplicationMenu(deps: AppMenuDeps): void {
  const { platform, isPackaged, resourcesPath, ask, ...items } = deps;
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      menuTemplate({
        ...items,
        isMac: platform === 'darwin',
        ...(platform === 'darwin' && isPackaged
          ? {
              installCommand: () =>
                void installCommand({
                  resourcesPath,
                  symlink: async (target, path) => {
                    await rm(path, { force: true });
                    await symlink(target, path);
                  },
                  osascript: async (script) => {
                    await execFileAsync('osascript', ['-e', script]);
                  },
                  say: (message, detail) =>
                    ask({ message, detail, buttons: ['OK'], defaultId: 0, cancelId: 0 }),
                }).catch(() => undefined),
            }
          : {}),
      }),
    ),
  );
}
