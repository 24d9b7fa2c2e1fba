import { existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { openStore, type OpenStoreOptions, type Store } from './index';
import type { RestoredWork } from './unsent-work';
import { DamagedDatabaseError } from './storage-errors';

/** A damaged mirror found at the start, and what was done about it. */
export interface MirrorRecovery {
  /** The damaged file, kept aside (never deleted) under this name. */
  keptAs: string;
  /** SQLite's words for the damage, for the log and the diagnostics (never shown alone). */
  reason: string;
  at: string;
  /** The unsent work put back from the journal beside the mirror (unsent-work.ts). */
  restored: RestoredWork;
}

export interface OpenedMirror {
  store: Store;
  recovery: MirrorRecovery | null;
}

/**
 * The account's mirror as the engine opens it at every start. Its header, schema and size are
 * read first; every page (`quick_check`) only when `check` asks (a call met a damaged page) or
 * the last run did not close it (its `.open` mark is still there): at 100,000 reports the check
 * takes seconds, too long for every start. A damaged file is set aside, a fresh one made, and the
 * unsent work put back from the journal; the sync then mirrors everything again from the server.
 * A newer app's file is refused untouched (SchemaTooNewError) for the caller to explain.
 */
export function openMirror(options: OpenStoreOptions & { check?: boolean }): OpenedMirror {
  const mark = `${options.file}.open`;
  // A WAL left with frames in it was not closed cleanly either (or its pages may hide a cut).
  const wal = `${options.file}-wal`;
  const unclean = existsSync(mark) || (existsSync(wal) && statSync(wal).size > 0);
  const opened = open(options, options.check === true || unclean);
  writeFileSync(mark, '');
  const close = opened.store.close;
  opened.store.close = () => {
    close();
    rmSync(mark, { force: true });
  };
  return opened;
}

function open(options: OpenStoreOptions, check: boolean): OpenedMirror {
  try {
    return { store: openStore({ ...options, check }), recovery: null };
  } catch (error) {
    if (!(error instanceof DamagedDatabaseError)) throw error;
    const keptAs = setAside(options.file, 'damaged');
    const store = openStore({ ...options, restoreUnsentWork: true });
    return {
      store,
      recovery: {
        keptAs,
        reason: error.reason,
        at: new Date().toISOString(),
        restored: store.restored ?? { reports: 0, drafts: 0, entries: 0, unreadable: 0 },
      },
    };
  }
}

/**
 * Moves a mirror file (with its -wal and -shm) aside as `<name>.<label>-<time>.sqlite`, so a new
 * one can be made in its place; returns the new name. Nothing is deleted.
 */
export function setAside(file: string, label: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = `${file.replace(/\.sqlite$/, '')}.${label}-${stamp}.sqlite`;
  renameSync(file, target);
  for (const suffix of ['-wal', '-shm']) {
    if (existsSync(`${file}${suffix}`)) renameSync(`${file}${suffix}`, `${target}${suffix}`);
  }
  return target;
}
