import { errorCode } from '../log/engine-log';

/** An outbox entry as the summary reads it: its kind, state and age, never its payload. */
export interface SummarizedEntry {
  kind: string;
  state: string;
  attempts: number;
  createdAt: string;
  lastError: unknown;
}

export interface OutboxSummary {
  open: number;
  /** Open entries per kind and state: `{ save_report: { pending: 2 } }`. */
  byKind: Record<string, Record<string, number>>;
  /** When the oldest open entry was queued (ISO), null when the queue is empty. */
  oldest: string | null;
  maxAttempts: number;
  /** The error codes the open entries last met, with how many met each. */
  errors: Record<string, number>;
}

/** What support needs to see of the queue, with nothing a researcher wrote in it. */
export function summarizeOutbox(entries: readonly SummarizedEntry[]): OutboxSummary {
  const open = entries.filter((e) => e.state !== 'done');
  const byKind: OutboxSummary['byKind'] = {};
  const errors: OutboxSummary['errors'] = {};
  let oldest: string | null = null;
  let maxAttempts = 0;
  for (const entry of open) {
    const states = (byKind[entry.kind] ??= {});
    states[entry.state] = (states[entry.state] ?? 0) + 1;
    if (oldest === null || entry.createdAt < oldest) oldest = entry.createdAt;
    maxAttempts = Math.max(maxAttempts, entry.attempts);
    const { code, status } = errorCode(entry.lastError);
    const key = code ?? (status === undefined ? null : `http_${status}`);
    if (key) errors[key] = (errors[key] ?? 0) + 1;
  }
  return { open: open.length, byKind, oldest, maxAttempts, errors };
}
