import { createHash } from 'node:crypto';
import { tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';

/** The file of the current writer's token (only the folder's owner can read it). */
export const TOKEN_FILE = 'engine.token';
const SOCKET_FILE = 'engine.sock';
/** sun_path holds 104 bytes on macOS, 108 on Linux (with its terminating zero). */
const MAX_UNIX_PATH = 100;

/**
 * Where the engine holding a data folder listens: a unix socket in the folder itself (so only
 * who may enter the folder may reach it), or a named pipe on Windows, named after the user and
 * the folder. Both sides compute it from the folder alone.
 */
export function engineSocketPath(
  dataDir: string,
  platform: NodeJS.Platform = process.platform,
): string {
  const folder = resolve(dataDir);
  const digest = createHash('sha256').update(folder).digest('hex').slice(0, 24);
  if (platform === 'win32') {
    const user = safeUser().replace(/[^A-Za-z0-9_.-]/g, '_');
    return `\\\\.\\pipe\\bountydesk-${user}-${digest}`;
  }
  const inFolder = join(folder, SOCKET_FILE);
  // A deep folder (a long home or test path) would not fit: the socket goes to the temp folder
  // under a name derived from the data folder; its mode (0600) and the token still guard it.
  return Buffer.byteLength(inFolder) <= MAX_UNIX_PATH
    ? inFolder
    : join(tmpdir(), `bountydesk-${digest}.sock`);
}

function safeUser(): string {
  try {
    return userInfo().username;
  } catch {
    return 'user';
  }
}
