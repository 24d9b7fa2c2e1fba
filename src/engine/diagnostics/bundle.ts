import type { CredentialCount } from './credentials';
import type { StatusView } from '@shared/bridge/views';
import type { OutboxSummary } from './outbox-summary';

/**
 * The "Export diagnostics" bundle: one plain-text file a researcher can read before sending it,
 * with the app's versions, its settings, the sync status, the outbox by kind and state, and the
 * log files. It holds no report content: the logs never had any, the outbox part is counts, and
 * the settings are main's own small file and the account's server and scope (never the key).
 */

export interface DiagnosticsInput {
  createdAt: string;
  versions: Readonly<Record<string, string | undefined>>;
  settings: unknown;
  status: unknown;
  outbox: OutboxSummary | null;
  updates: unknown;
  logs: readonly { name: string; text: string }[];
}

export const BUNDLE_TITLE = 'Bounty Desk diagnostics';

const section = (title: string, body: string): string =>
  `\n===== ${title} =====\n${body.trimEnd()}\n`;
const json = (value: unknown): string => JSON.stringify(value ?? null, null, 2);

/** The bundle's text, before the credential check. */
export function renderBundle(input: DiagnosticsInput): string {
  const versions = Object.entries(input.versions)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([name, version]) => `${name}: ${version}`)
    .join('\n');
  return [
    `${BUNDLE_TITLE}\nCreated: ${input.createdAt}\n`,
    section('Versions', versions),
    section('Settings', json(input.settings)),
    section('Status', json(input.status)),
    section('Outbox (counts only)', input.outbox ? json(input.outbox) : 'not signed in'),
    section('Updates', json(input.updates)),
    ...input.logs.map((log) => section(`Log ${log.name}`, log.text || '(empty)')),
  ].join('');
}

/** The checked bundle: its first lines say what the credential check removed. */
export function sealBundle(
  checked: string,
  removed: readonly CredentialCount[],
  notes: readonly string[] = [],
): string {
  const total = removed.reduce((n, r) => n + r.count, 0);
  const what =
    total === 0
      ? 'Credential check: nothing found.'
      : `Credential check: removed ${total} (${removed.map((r) => `${r.kind} ×${r.count}`).join(', ')}).`;
  const [first = '', ...rest] = checked.split('\n');
  return [first, what, ...notes, ...rest].join('\n');
}

/**
 * The sync status as the bundle shows it: states and counts only. Whatever the status view holds
 * besides (report titles in the inbox, an error's words that may quote the server) stays out,
 * so a field added to the view later cannot leak into a bundle by default.
 */
export function statusForDiagnostics(status: StatusView): Record<string, unknown> {
  return {
    connectivity: status.connectivity,
    syncing: status.syncing,
    lastSyncAt: status.lastSyncAt,
    unsent: status.unsent,
    held: status.held,
    needsAction: status.needsAction,
    unread: status.unread,
    inbox: status.inbox.length,
    budget: status.budget,
    lastError: status.lastError && { code: status.lastError.code, status: status.lastError.status },
    storage: {
      diskFull: status.storage.diskFull,
      // The kept file by its name only: the folder may carry the user's name.
      recovered: status.storage.recovered && {
        at: status.storage.recovered.at,
        keptAs: status.storage.recovered.keptAs.split(/[\\/]/).pop(),
        drafts: status.storage.recovered.drafts,
        changes: status.storage.recovered.changes,
      },
      newerData: status.storage.newerData,
    },
  };
}
