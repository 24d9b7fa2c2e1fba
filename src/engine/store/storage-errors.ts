/**
 * What the user's disk can do to the mirror, told apart from every other failure: a full disk
 * (SQLite's SQLITE_FULL, Node's ENOSPC or EDQUOT) pauses work until a write succeeds again; a
 * damaged file (SQLITE_CORRUPT, SQLITE_NOTADB) is set aside and the mirror rebuilt from the
 * server. One home for the codes: the outbox, the sync, the calls and the opening all ask here.
 */
import { ENGINE_CODES } from '@shared/errors/error-data';

export type StorageProblem = 'disk-full' | 'damaged';

const DISK_FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);
const DAMAGED_CODES = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB']);

/** The disk problem behind `error`, if it is one (extended SQLite codes count as their base). */
export function storageProblem(error: unknown): StorageProblem | null {
  if (error instanceof DiskFullError) return 'disk-full';
  if (error instanceof DamagedDatabaseError) return 'damaged';
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  const base = code.replace(/^(SQLITE_[A-Z]+)_[A-Z_]+$/, '$1');
  if (DISK_FULL_CODES.has(base)) return 'disk-full';
  if (DAMAGED_CODES.has(base)) return 'damaged';
  return null;
}

export const DISK_FULL_SENTENCE =
  'Your disk is full: nothing is lost; sending resumes when space is free.';

/** A write the disk refused. Its message is what the researcher reads, never a field name. */
export class DiskFullError extends Error {
  readonly code = ENGINE_CODES.diskFull;
  constructor(what = 'This change') {
    super(
      `Your disk is full: ${what} could not be saved yet. Free some space; the app keeps trying and loses nothing.`,
    );
    this.name = 'DiskFullError';
  }
}

/** The mirror file cannot be read as a database (truncated, garbled, not SQLite at all). */
export class DamagedDatabaseError extends Error {
  readonly code = ENGINE_CODES.damagedDatabase;
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`The offline copy (${file}) is damaged: ${reason}`);
    this.name = 'DamagedDatabaseError';
  }
}

/** SQLite's own words for a damaged file, as the one error the opening of a mirror handles. */
export function asDamaged(file: string, error: unknown): unknown {
  if (error instanceof DamagedDatabaseError || storageProblem(error) !== 'damaged') return error;
  return new DamagedDatabaseError(file, error instanceof Error ? error.message : String(error));
}
