import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite } from '../store/sqlite-binding';
import { ENGINE_CODES } from '@shared/errors/error-data';

/** The data folder's one writer: whoever holds this may open the mirror and the outbox. */
export interface DataLock {
  release(): void;
}

export const LOCK_FILE = 'writer.lock';

/**
 * Takes the data folder's writer lock now, or answers null when another process holds it.
 *
 * The lock is SQLite's own exclusive lock on a small file of the folder (an OS file lock: POSIX
 * advisory locks, LockFileEx on Windows), held by an open `BEGIN EXCLUSIVE` for as long as the
 * process lives. The OS releases it when the process ends however it ends (killed, crashed), so
 * there is never a stale lock to guess about, and two processes cannot both take it.
 */
export function tryLockDataDir(dataDir: string): DataLock | null {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const db = openSqlite(join(dataDir, LOCK_FILE), { timeout: 0 });
  try {
    db.pragma('journal_mode = DELETE');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if (isBusy(error)) return null;
    throw error;
  }
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      try {
        db.exec('ROLLBACK');
      } finally {
        db.close();
      }
    },
  };
}

/** Waits until the lock is free (another writer ends), polling every `pollMs`. */
export async function lockDataDir(
  dataDir: string,
  options: { pollMs?: number; timeoutMs?: number; onWait?(): void } = {},
): Promise<DataLock> {
  const deadline = Date.now() + (options.timeoutMs ?? Number.POSITIVE_INFINITY);
  let told = false;
  for (;;) {
    const lock = tryLockDataDir(dataDir);
    if (lock) return lock;
    if (!told) options.onWait?.();
    told = true;
    if (Date.now() > deadline) {
      throw new DataDirBusyError('Another Bounty Desk process holds the data folder.');
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100));
  }
}

export class DataDirBusyError extends Error {
  override readonly name = 'DataDirBusyError';
  readonly code = ENGINE_CODES.dataDirBusy;
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}
