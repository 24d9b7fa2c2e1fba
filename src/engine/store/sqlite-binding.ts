/**
 * Which build of better-sqlite3's native addon this process loads. `npm ci` builds one for the
 * Node that ran it (the tests and the sandbox use it); the app under Electron needs one for
 * Electron's ABI, which `npm start`'s first step builds into a folder of its own
 * (scripts/sqlite-binding.ts) and main names when it starts the engine. A packaged app loads the
 * one electron-builder rebuilt inside it. The engine checks the binding before it opens a mirror:
 * a binding for another runtime is one sentence naming the fix, not a crash on the first query.
 */
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { SQLITE_ADDON } from './sqlite-binding-path';
import { ENGINE_CODES } from '@shared/errors/error-data';

export class SqliteBindingError extends Error {
  override readonly name = 'SqliteBindingError';
  readonly code = ENGINE_CODES.sqliteBinding;
}

let binding: string | undefined;

/**
 * Opens a SQLite file with the process's binding: the one way this code base opens a database, so
 * no file (the mirror, the writer lock) can load the addon of another runtime by forgetting it.
 */
export function openSqlite(file: string, options: Database.Options = {}): Database.Database {
  return new Database(
    file,
    binding === undefined ? options : { ...options, nativeBinding: binding },
  );
}

/**
 * Loads `path` (or better-sqlite3's own build) and opens an in-memory database with it; from then
 * on every database of this process uses it. Throws SqliteBindingError, one sentence, when the
 * addon is missing or was built for another runtime.
 */
export function useSqliteBinding(path?: string): void {
  const file = path === undefined ? undefined : resolve(path);
  try {
    new Database(':memory:', file === undefined ? {} : { nativeBinding: file }).close();
  } catch (error) {
    throw new SqliteBindingError(bindingProblem(file, error));
  }
  binding = file;
}

function runtimeName(): string {
  const electron = process.versions.electron;
  return electron ? `Electron ${electron}` : `Node ${process.version}`;
}

/** The fix, by who loads which binding. */
function fix(file: string | undefined): string {
  if (file !== undefined && process.versions.electron) {
    return 'run `npm start` again on a machine that can download (its first step, `npm run sqlite:electron`, builds it)';
  }
  if (file !== undefined) return `build it for ${runtimeName()} (scripts/sqlite-binding.ts)`;
  if (process.versions.electron) return 'reinstall Bounty Desk';
  return 'run `npm rebuild better-sqlite3` with this Node';
}

function bindingProblem(file: string | undefined, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const where = file ?? defaultAddon() ?? 'better-sqlite3';
  const versions = [...message.matchAll(/NODE_MODULE_VERSION (\d+)/g)].map((m) => m[1]);
  if (versions.length >= 2) {
    return (
      `SQLite cannot start: its binding ${where} was built for another runtime ` +
      `(NODE_MODULE_VERSION ${versions[0]}; ${runtimeName()} needs ${versions[1]}): ${fix(file)}.`
    );
  }
  if (/cannot find module|no such file|could not locate the bindings file/i.test(message)) {
    return `SQLite cannot start: its binding for ${runtimeName()} is missing (${where}): ${fix(file)}.`;
  }
  return `SQLite cannot start: its binding ${where} does not load in ${runtimeName()} (${firstLine(message)}): ${fix(file)}.`;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0]?.trim() ?? '';
}

/** Where better-sqlite3's own build is, for the message (null when even the package is gone). */
function defaultAddon(): string | null {
  try {
    const require = createRequire(import.meta.url);
    return join(
      require.resolve('better-sqlite3/package.json'),
      '..',
      'build',
      'Release',
      SQLITE_ADDON,
    );
  } catch {
    return null;
  }
}
