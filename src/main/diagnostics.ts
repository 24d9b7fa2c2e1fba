import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderBundle, sealBundle, statusForDiagnostics } from '@engine/diagnostics/bundle';
import { removeCredentials, type CheckedText } from '@engine/diagnostics/credentials';
import type { OutboxSummary } from '@engine/diagnostics/outbox-summary';
import type { Logger } from '@engine/log/logger';
import type { AccountView, StatusView } from '@shared/bridge/views';

/** The part of Electron's `dialog` the export uses. */
export interface ExportDialog {
  showSaveDialog(options: {
    title: string;
    defaultPath: string;
    buttonLabel: string;
    filters: { name: string; extensions: string[] }[];
    properties: 'showOverwriteConfirmation'[];
  }): Promise<{ canceled: boolean; filePath?: string }>;
}

export interface DiagnosticsDeps {
  /** `<userData>/logs`: every `*.log` there goes into the bundle. */
  logDir: string;
  /** main's own settings file (`shell.json`). */
  settingsFile: string;
  versions: Readonly<Record<string, string | undefined>>;
  engine: {
    getAccount(): Promise<AccountView | null>;
    getStatus(): Promise<StatusView>;
    outboxSummary(): Promise<OutboxSummary | null>;
    checkCredentials(text: string): Promise<CheckedText>;
  };
  updates(): unknown;
  dialog: ExportDialog;
  /** The folder the save dialog opens in. */
  defaultDir: string;
  now(): Date;
  log: Logger;
}

/** `bounty-desk-diagnostics-20250102-030405.txt` */
export function bundleName(date: Date): string {
  const stamp = date.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `bounty-desk-diagnostics-${stamp}.txt`;
}

/** The account as support needs it: which server (its origin only), sandbox or not, the scope. */
export function accountSettings(account: AccountView | null): Record<string, unknown> {
  if (!account) return { signedIn: false };
  let server = 'unknown';
  try {
    server = new URL(account.serverUrl).origin;
  } catch {
    // a stored URL that no longer parses: say so rather than echo it
  }
  return { signedIn: true, server, sandbox: account.sandbox, scope: account.scope };
}

async function readLogs(dir: string): Promise<{ name: string; text: string }[]> {
  const names = (await readdir(dir).catch(() => [] as string[]))
    .filter((name) => name.endsWith('.log'))
    .sort();
  return Promise.all(
    names.map(async (name) => ({
      name,
      text: await readFile(join(dir, name), 'utf8').catch(() => '(unreadable)'),
    })),
  );
}

/**
 * "Export diagnostics": the user picks where the text bundle goes; it is assembled (versions,
 * settings, status, outbox counts, the logs), checked for credentials by the engine process
 * (which alone can read the signed-in key from the keychain) and written readable by the user
 * only. Without an engine to ask, the check removes every credential shape it knows and says
 * the key itself could not be compared. Resolves with the path written, or null when cancelled.
 */
export async function exportDiagnostics(deps: DiagnosticsDeps): Promise<string | null> {
  const choice = await deps.dialog.showSaveDialog({
    title: 'Export diagnostics',
    defaultPath: join(deps.defaultDir, bundleName(deps.now())),
    buttonLabel: 'Export',
    filters: [{ name: 'Text', extensions: ['txt'] }],
    properties: ['showOverwriteConfirmation'],
  });
  if (choice.canceled || !choice.filePath) return null;
  const { engine } = deps;
  const account = await engine.getAccount().catch(() => null);
  const settings = {
    app: JSON.parse(await readFile(deps.settingsFile, 'utf8').catch(() => 'null')) as unknown,
    account: accountSettings(account),
  };
  const status = account ? await engine.getStatus().catch(() => null) : null;
  const outbox = await engine.outboxSummary().catch(() => null);
  const text = renderBundle({
    createdAt: deps.now().toISOString(),
    versions: deps.versions,
    settings,
    status: status && statusForDiagnostics(status),
    outbox,
    updates: deps.updates(),
    logs: await readLogs(deps.logDir),
  });
  let checked: CheckedText;
  const notes: string[] = [];
  try {
    checked = await engine.checkCredentials(text);
  } catch {
    checked = removeCredentials(text, []);
    notes.push('The engine did not answer: the signed-in key was not compared, only its shape.');
  }
  const bundle = sealBundle(checked.text, checked.removed, notes);
  await writeFile(choice.filePath, bundle, { encoding: 'utf8', mode: 0o600 });
  deps.log.info('diagnostics', 'exported', {
    bytes: Buffer.byteLength(bundle),
    removed: checked.removed.reduce((n, r) => n + r.count, 0),
  });
  return choice.filePath;
}
