import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { KeyScope } from '@shared/api';

/** Which account the app is signed in to. The key itself is in the OS keychain, never here. */
export interface AccountRecord {
  serverUrl: string;
  uid: string;
  scope: KeyScope;
  sandbox: boolean;
}

const FILE = 'account.json';

export async function readAccountRecord(dataDir: string): Promise<AccountRecord | null> {
  try {
    const parsed = JSON.parse(
      await readFile(join(dataDir, FILE), 'utf8'),
    ) as Partial<AccountRecord>;
    if (typeof parsed.serverUrl !== 'string' || typeof parsed.uid !== 'string') return null;
    return {
      serverUrl: parsed.serverUrl,
      uid: parsed.uid,
      scope: parsed.scope === 'read' ? 'read' : 'write',
      sandbox: parsed.sandbox === true,
    };
  } catch {
    return null;
  }
}

export async function writeAccountRecord(dataDir: string, record: AccountRecord): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const tmp = join(dataDir, `${FILE}.tmp`);
  await writeFile(tmp, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  await rename(tmp, join(dataDir, FILE));
}

export async function removeAccountRecord(dataDir: string): Promise<void> {
  await rm(join(dataDir, FILE), { force: true });
}

/**
 * One mirror folder per (server, account): switching accounts never mixes their data. The
 * embedded sandbox may come back on another port, so it is one server whatever its URL: its
 * unsent drafts survive a port change.
 */
export function accountDir(
  dataDir: string,
  record: Pick<AccountRecord, 'serverUrl' | 'uid' | 'sandbox'>,
): string {
  const server = record.sandbox ? 'embedded-sandbox' : record.serverUrl;
  const id = createHash('sha256').update(`${server}\n${record.uid}`).digest('hex');
  return join(dataDir, 'accounts', id.slice(0, 24));
}
