import { randomUUID } from 'node:crypto';
import { lstat } from 'node:fs/promises';
import { basename, isAbsolute } from 'node:path';
import type { FileToken, PickedFile } from '@shared/bridge/contract';
import { BridgeInputError } from './errors';

/** Tokens kept at once; the oldest go first (a window that never attaches what it got). */
const KEPT = 1_000;

/**
 * The files the user handed to the app, by token. Main hands out a token for a path only when the
 * path comes from the user's own hand: its open dialog, or a drop the preload turned into a path.
 * The page passes tokens back and never names a path, so hostile content cannot make the app read
 * a file the user did not give it.
 */
export class FileTokens {
  readonly #paths = new Map<FileToken, string>();

  /**
   * A file the user picked or dropped: a regular file, by its absolute path. A link is refused,
   * not followed: its name would be shown while another file (`/etc/shadow` behind
   * `screenshot.png`) was read; so are folders, devices, pipes and sockets. The name the page
   * gets is the file's own, shown in the evidence list before anything is read.
   */
  async register(path: string): Promise<PickedFile> {
    if (!isAbsolute(path) || path.includes('\0')) {
      throw new BridgeInputError('file: must be a file on this computer', 'file');
    }
    const name = basename(path);
    const info = await lstat(path).catch(() => null);
    if (info?.isSymbolicLink()) {
      throw new BridgeInputError(
        `file "${name}": is a link to another file; attach the file itself`,
        'file',
      );
    }
    if (!info?.isFile()) throw new BridgeInputError(`file "${name}": is not a file`, 'file');
    const token = randomUUID();
    this.#paths.set(token, path);
    for (const old of this.#paths.keys()) {
      if (this.#paths.size <= KEPT) break;
      this.#paths.delete(old);
    }
    return { token, name, size: info.size };
  }

  /** The path behind a token; a token main never gave out is refused before anything is read. */
  resolve(token: FileToken): string {
    const path = this.#paths.get(token);
    if (!path) {
      throw new BridgeInputError(
        'file: this file was not given to the app (drop it or pick it again)',
        'file',
      );
    }
    return path;
  }
}
