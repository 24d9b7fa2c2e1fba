import { join } from 'node:path';

/** The addon's file name, as better-sqlite3's build names it. */
export const SQLITE_ADDON = 'better_sqlite3.node';

/**
 * `<root>/.native/<runtime>-<version>-<platform>-<arch>/better_sqlite3.node`: a folder per runtime
 * whose build it holds, beside the `node_modules` one that serves the Node that ran `npm ci`.
 * `npm start`'s first step writes the Electron one (scripts/sqlite-binding.ts), main names it.
 */
export function sqliteBindingPath(
  root: string,
  runtime: 'electron' | 'node',
  version: string,
  platform: string = process.platform,
  arch: string = process.arch,
): string {
  const folder = `${runtime}-${version.replace(/^v/, '')}-${platform}-${arch}`;
  return join(root, '.native', folder, SQLITE_ADDON);
}
