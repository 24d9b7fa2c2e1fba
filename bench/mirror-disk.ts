/**
 * The mirror's size on disk under a data folder: the SQLite file of each account and its WAL
 * (`accounts/<hash>/mirror.sqlite`), read from the file system, with no engine code loaded (the
 * process playing main loads none).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function mirrorBytes(dataDir: string): number {
  const accounts = join(dataDir, 'accounts');
  if (!existsSync(accounts)) return 0;
  let bytes = 0;
  for (const account of readdirSync(accounts)) {
    for (const suffix of ['', '-wal']) {
      const file = join(accounts, account, `mirror.sqlite${suffix}`);
      if (existsSync(file)) bytes += statSync(file).size;
    }
  }
  return bytes;
}
