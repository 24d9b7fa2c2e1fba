import { homedir } from 'node:os';
import { join } from 'node:path';

/** The app's product name: Electron names its `userData` folder after it. */
const PRODUCT = 'Bounty Desk';

/**
 * The app's `userData` folder, as Electron's `app.getPath('userData')` finds it on each OS, so
 * the command and the app use one data folder, one account and one keychain entry.
 * `BOUNTYDESK_USER_DATA` (or `--user-data`) points elsewhere (tests, a second profile).
 */
export function defaultUserData(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  const override = env['BOUNTYDESK_USER_DATA'];
  if (override) return override;
  if (platform === 'win32')
    return join(env['APPDATA'] ?? join(home, 'AppData', 'Roaming'), PRODUCT);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', PRODUCT);
  return join(env['XDG_CONFIG_HOME'] || join(home, '.config'), PRODUCT);
}

/** The folders inside `userData` the app uses (src/main/paths.ts). */
export function dataFolders(userData: string): { dataDir: string; logDir: string } {
  return { dataDir: join(userData, 'data'), logDir: join(userData, 'logs') };
}
