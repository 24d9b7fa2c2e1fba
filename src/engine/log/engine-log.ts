import type { BridgeEvents } from '@shared/bridge/contract';
import type { Logger } from './logger';

/** The engine's event bus, as far as the log listens to it. */
export interface LoggedEvents {
  on<E extends keyof BridgeEvents>(
    event: E,
    listener: (payload: BridgeEvents[E]) => void,
  ): () => void;
}

/** An outbox entry as the log sees it: what it is and where it stands, never its payload. */
export interface OutboxEntryState {
  id: number;
  reportId: string;
  kind: string;
  state: string;
  attempts: number;
  lastError: unknown;
}

export interface EngineLogOptions {
  events: LoggedEvents;
  log: Logger;
  /** The open outbox entries now; null when signed out. Read after each status change. */
  outbox(): readonly OutboxEntryState[] | null;
}

/** The code and status of an error as the API or the outbox stored it; never its text. */
export function errorCode(error: unknown): { code?: string; status?: number } {
  if (!error || typeof error !== 'object') return {};
  const e = error as { code?: unknown; status?: unknown; name?: unknown };
  const code = typeof e.code === 'string' ? e.code : typeof e.name === 'string' ? e.name : null;
  return {
    ...(code ? { code: code.slice(0, 60) } : {}),
    ...(typeof e.status === 'number' ? { status: e.status } : {}),
  };
}

/**
 * Writes the engine's sync, outbox and triage events to the log, by id and count only: a report
 * is named by its id, never its title, and no field of a payload carries user text.
 *
 * Outbox events are derived from the queue itself: after each status change, and whenever the
 * caller says the queue may have changed (`look()`, after each engine call), the open entries are
 * compared with the last look, so queued, retried, parked and sent entries are logged without the
 * outbox knowing about the log.
 */
export function logEngineEvents(options: EngineLogOptions): { look(): void; off(): void } {
  const { events, log } = options;
  let syncing = false;
  let changed = 0;
  let connectivity: string | null = null;
  let known = new Map<number, OutboxEntryState>();
  const uploads = new Set<string>();

  const diffOutbox = (): void => {
    let entries: readonly OutboxEntryState[] | null;
    try {
      entries = options.outbox();
    } catch {
      return; // the mirror closed under us (sign-out): nothing to compare
    }
    if (!entries) {
      known = new Map();
      return;
    }
    const next = new Map(entries.map((e) => [e.id, e]));
    for (const entry of entries) {
      const before = known.get(entry.id);
      const ids = { entry: entry.id, kind: entry.kind, report: entry.reportId };
      if (!before) {
        log.info('outbox', 'queued', { ...ids, state: entry.state, attempts: entry.attempts });
      } else if (before.state !== entry.state || before.attempts !== entry.attempts) {
        const level = entry.state === 'parked' ? 'warn' : 'info';
        const event =
          entry.state === 'parked' ? 'parked' : entry.state === 'pending' ? 'retry' : entry.state;
        log[level]('outbox', event, {
          ...ids,
          attempts: entry.attempts,
          ...(entry.state === 'in_flight' ? {} : errorCode(entry.lastError)),
        });
      }
    }
    for (const [id, before] of known) {
      if (!next.has(id))
        log.info('outbox', 'sent', { entry: id, kind: before.kind, report: before.reportId });
    }
    known = next;
  };

  const offs = [
    events.on('status', (status) => {
      diffOutbox();
      if (status.syncing && !syncing) {
        changed = 0;
        log.info('sync', 'started', { unsent: status.unsent });
      } else if (!status.syncing && syncing) {
        log.info('sync', 'finished', {
          ok: status.lastError === null,
          changed,
          unsent: status.unsent,
          parked: status.needsAction,
          budget: `${status.budget.used}/${status.budget.limit}`,
          ...(status.lastError
            ? { code: status.lastError.code, status: status.lastError.status }
            : {}),
        });
      }
      syncing = status.syncing;
    }),
    events.on('connectivity', ({ state }) => {
      if (state === connectivity) return;
      connectivity = state;
      log[state === 'offline' ? 'warn' : 'info']('sync', 'connectivity', { state });
    }),
    events.on('sync-error', (error) =>
      log.warn('sync', 'error', {
        code: error.code,
        status: error.status,
        requestId: error.requestId,
      }),
    ),
    events.on('report-changed', () => {
      changed++;
    }),
    events.on('needs-info', ({ reportId }) =>
      log.info('triage', 'needs-info', { report: reportId }),
    ),
    events.on('decision', ({ reportId, outcome }) =>
      log.info('triage', 'decision', { report: reportId, outcome }),
    ),
    events.on('payout-changed', ({ reportId, status, amountCents }) =>
      log.info('triage', 'payout', { report: reportId, status, cents: amountCents }),
    ),
    events.on('upload-progress', ({ reportId, fileId, sentBytes, size }) => {
      // Progress comes many times a second: the log keeps the start and the end of each upload.
      if (!uploads.has(fileId)) {
        uploads.add(fileId);
        log.info('outbox', 'upload-started', { report: reportId, file: fileId, size });
      }
      if (sentBytes >= size) {
        uploads.delete(fileId);
        log.info('outbox', 'upload-sent', { report: reportId, file: fileId, size });
      }
    }),
  ];
  return { look: diffOutbox, off: () => offs.forEach((off) => off()) };
}
