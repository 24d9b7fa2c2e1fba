import type { Db } from './database';
import { redactedJson } from '@shared/api/redact';
import { camelCased, parseJson } from './sql-values';
import type { OutboxKind, StatusChangeKind } from '@shared/bridge/views';

/**
 * Where a report's thread ended just before a message post left: the last message's id and the
 * number of messages. After an attempt whose outcome is unknown, only a message after this point
 * can be that attempt's.
 */
export interface ThreadMark {
  lastId: string | null;
  count: number;
}

/**
 * What each kind of queued write carries; the outbox worker reads revisions at send time. A
 * `save_report` carries nothing: it sends the local draft as it is when it goes out.
 */
export interface OutboxPayloads {
  save_report: Record<string, never>;
  upload_file: {
    file_id: string;
    name: string;
    content_type: string;
    size: number;
    sha256: string;
  };
  remove_file: { file_id: string };
  submit: Record<string, never>;
  withdraw: Record<string, never>;
  /** `threadMark` is written (durably) before each attempt is sent. */
  post_message: { body: string; files: string[]; threadMark?: ThreadMark };
}

// One list of kinds, the bridge's: the screens name them too, and shared code cannot import
// the engine's. Each has its payload here: this compiles only while the two lists agree.
export type { OutboxKind, StatusChangeKind };
export const PAYLOADS_MATCH_KINDS: [keyof OutboxPayloads] extends [OutboxKind]
  ? [OutboxKind] extends [keyof OutboxPayloads]
    ? true
    : never
  : never = true;

/** Kinds that carry nothing (`{}`), so an unreadable payload of theirs can be rebuilt exactly. */
export const PAYLOAD_IS_EMPTY: Readonly<Record<OutboxKind, boolean>> = {
  save_report: true,
  upload_file: false,
  remove_file: false,
  submit: true,
  withdraw: true,
  post_message: false,
};

/** Each kind: whether it is a `StatusChangeKind` (the list says one on its way). */
export const CHANGES_STATUS: {
  readonly [K in OutboxKind]: K extends StatusChangeKind ? true : false;
} = {
  save_report: false,
  upload_file: false,
  remove_file: false,
  submit: true,
  withdraw: true,
  post_message: false,
};

export type OutboxState = 'pending' | 'in_flight' | 'done' | 'parked';

export interface OutboxEntry<K extends OutboxKind = OutboxKind> {
  id: number;
  reportId: string;
  kind: K;
  payload: OutboxPayloads[K];
  state: OutboxState;
  attempts: number;
  /** Epoch ms; the entry is not ready before. */
  nextAttemptAt: number;
  lastError: unknown;
  /** post_message only: the client's id for the message and its content fingerprint. */
  localId: string | null;
  bodyHash: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface EnqueueInput<K extends OutboxKind> {
  reportId: string;
  kind: K;
  payload: OutboxPayloads[K];
  localId?: string;
  bodyHash?: string;
  /** Earliest time to send (epoch ms); default now. */
  notBefore?: number;
}

export interface OutboxRepository {
  /**
   * Adds a write at the end of its report's queue. A `save_report` whose report already ends
   * with a pending `save_report` is that entry (coalescing: it will send the draft as it is
   * then); later entries are never overtaken.
   */
  enqueue<K extends OutboxKind>(input: EnqueueInput<K>): OutboxEntry<K>;
  /** For each report, its first open entry if pending and due; parked or in-flight heads block. */
  nextReady(now: number, limit?: number): OutboxEntry[];
  nextReadyForReport(reportId: string, now: number): OutboxEntry | null;
  markInFlight(id: number): void;
  markDone(id: number): void;
  /** Replaces an open entry's payload (e.g. a message's thread mark before it is sent). */
  setPayload<K extends OutboxKind>(id: number, payload: OutboxPayloads[K]): void;
  retryLater(id: number, nextAttemptAt: number, error: unknown): void;
  park(id: number, error: unknown): void;
  /** The user fixed the cause: a parked entry goes back to pending. */
  unpark(id: number, now?: number): void;
  /** Drops an open entry (the user discarded it). */
  cancel(id: number): void;
  /** An entry whose attempt could not be recorded (a full disk) becomes pending again. */
  release(id: number): void;
  /** At start-up: entries left in flight by a crash become pending again (attempts kept). */
  recoverInFlight(): OutboxEntry[];
  get(id: number): OutboxEntry | null;
  list(options?: { reportId?: string; includeDone?: boolean }): OutboxEntry[];
  countUnsent(reportId?: string): number;
  /** Deletes done entries last changed at or before `olderThan`; returns how many. */
  pruneDone(olderThan: string): number;
}

interface OutboxRow {
  id: number;
  report_id: string;
  kind: OutboxKind;
  payload_json: string;
  state: OutboxState;
  attempts: number;
  next_attempt_at: number;
  last_error_json: string | null;
  local_id: string | null;
  body_hash: string | null;
  created_at: string;
  updated_at: string;
}

function toEntry({ payload_json, last_error_json, ...columns }: OutboxRow): OutboxEntry {
  return {
    ...camelCased(columns),
    payload: JSON.parse(payload_json) as OutboxPayloads[OutboxKind],
    lastError: readableJson(last_error_json),
  };
}

/**
 * Why the last attempt failed, or null if that row cannot be read (the store repairs such rows
 * when it opens, see unreadable-rows.ts): the entry is tried again rather than failing to load.
 */
function readableJson(text: string | null): unknown {
  try {
    return parseJson<unknown>(text);
  } catch {
    return null;
  }
}

const nowIso = () => new Date().toISOString();
const OPEN = "state <> 'done'";

export function createOutboxRepository(db: Db): OutboxRepository {
  const sqlite = db.sqlite;
  const insert = sqlite.prepare(`
    INSERT INTO outbox (report_id, kind, payload_json, next_attempt_at, local_id, body_hash,
      created_at, updated_at)
    VALUES (@report_id, @kind, @payload_json, @next_attempt_at, @local_id, @body_hash, @at, @at)`);
  const selectTail = sqlite.prepare<[string], OutboxRow>(
    `SELECT * FROM outbox WHERE report_id = ? AND ${OPEN} ORDER BY id DESC LIMIT 1`,
  );
  const touch = sqlite.prepare<[string, number]>(
    "UPDATE outbox SET updated_at = ? WHERE id = ? AND state = 'pending'",
  );
  const selectOne = sqlite.prepare<[number], OutboxRow>('SELECT * FROM outbox WHERE id = ?');
  const heads = `SELECT report_id, min(id) AS head FROM outbox WHERE ${OPEN} GROUP BY report_id`;
  const selectReady = sqlite.prepare<[number, number], OutboxRow>(`
    SELECT o.* FROM (${heads}) h JOIN outbox o ON o.id = h.head
    WHERE o.state = 'pending' AND o.next_attempt_at <= ?
    ORDER BY o.next_attempt_at, o.id LIMIT ?`);
  const selectHead = sqlite.prepare<[string], OutboxRow>(
    `SELECT * FROM outbox WHERE report_id = ? AND ${OPEN} ORDER BY id LIMIT 1`,
  );
  const setInFlight = sqlite.prepare<[string, number]>(
    "UPDATE outbox SET state = 'in_flight', attempts = attempts + 1, updated_at = ? WHERE id = ? AND state = 'pending'",
  );
  const setDone = sqlite.prepare<[string, number]>(
    "UPDATE outbox SET state = 'done', updated_at = ? WHERE id = ?",
  );
  const setPayloadJson = sqlite.prepare<[string, string, number]>(
    `UPDATE outbox SET payload_json = ?, updated_at = ? WHERE id = ? AND ${OPEN}`,
  );
  const setRetry = sqlite.prepare<[number, string, string, number]>(
    "UPDATE outbox SET state = 'pending', next_attempt_at = ?, last_error_json = ?, updated_at = ? WHERE id = ? AND state <> 'done'",
  );
  const setParked = sqlite.prepare<[string, string, number]>(
    "UPDATE outbox SET state = 'parked', last_error_json = ?, updated_at = ? WHERE id = ? AND state <> 'done'",
  );
  const setUnparked = sqlite.prepare<[number, string, number]>(
    // The user's Retry gives the entry its full budget of server errors again.
    "UPDATE outbox SET state = 'pending', next_attempt_at = ?, updated_at = ?, last_error_json = CASE WHEN json_valid(last_error_json) THEN json_remove(last_error_json, '$.serverErrors') END WHERE id = ? AND state = 'parked'",
  );
  const deleteOpen = sqlite.prepare<[number]>(`DELETE FROM outbox WHERE id = ? AND ${OPEN}`);
  const selectInFlight = sqlite.prepare<[], OutboxRow>(
    "SELECT * FROM outbox WHERE state = 'in_flight' ORDER BY id",
  );
  const resetInFlight = sqlite.prepare<[string]>(
    "UPDATE outbox SET state = 'pending', updated_at = ? WHERE state = 'in_flight'",
  );
  const resetOne = sqlite.prepare<[string, number]>(
    "UPDATE outbox SET state = 'pending', updated_at = ? WHERE id = ? AND state = 'in_flight'",
  );
  const selectOpen = sqlite.prepare<[], OutboxRow>(
    `SELECT * FROM outbox WHERE ${OPEN} ORDER BY id`,
  );
  const selectAll = sqlite.prepare<[], OutboxRow>('SELECT * FROM outbox ORDER BY id');
  const selectOpenOf = sqlite.prepare<[string], OutboxRow>(
    `SELECT * FROM outbox WHERE report_id = ? AND ${OPEN} ORDER BY id`,
  );
  const selectAllOf = sqlite.prepare<[string], OutboxRow>(
    'SELECT * FROM outbox WHERE report_id = ? ORDER BY id',
  );
  const countOpen = sqlite.prepare<[], { n: number }>(
    `SELECT count(*) AS n FROM outbox WHERE ${OPEN}`,
  );
  const countOpenOf = sqlite.prepare<[string], { n: number }>(
    `SELECT count(*) AS n FROM outbox WHERE report_id = ? AND ${OPEN}`,
  );
  const deleteDone = sqlite.prepare<[string]>(
    "DELETE FROM outbox WHERE state = 'done' AND updated_at <= ?",
  );

  function get(id: number): OutboxEntry | null {
    const row = selectOne.get(id);
    return row ? toEntry(row) : null;
  }

  return {
    enqueue<K extends OutboxKind>(input: EnqueueInput<K>): OutboxEntry<K> {
      return db.transaction(() => {
        const at = nowIso();
        const payloadJson = JSON.stringify(input.payload);
        if (input.kind === 'save_report') {
          const tail = selectTail.get(input.reportId);
          if (tail?.kind === 'save_report' && tail.state === 'pending') {
            touch.run(at, tail.id);
            return get(tail.id) as OutboxEntry<K>;
          }
        }
        const { lastInsertRowid } = insert.run({
          report_id: input.reportId,
          kind: input.kind,
          payload_json: payloadJson,
          next_attempt_at: input.notBefore ?? 0,
          local_id: input.localId ?? null,
          body_hash: input.bodyHash ?? null,
          at,
        });
        return get(Number(lastInsertRowid)) as OutboxEntry<K>;
      });
    },

    nextReady(now, limit = 100) {
      return selectReady.all(now, limit).map(toEntry);
    },

    nextReadyForReport(reportId, now) {
      const head = selectHead.get(reportId);
      return head && head.state === 'pending' && head.next_attempt_at <= now ? toEntry(head) : null;
    },

    markInFlight(id) {
      if (setInFlight.run(nowIso(), id).changes !== 1) {
        throw new Error(`outbox entry ${id} is not pending`);
      }
    },
    markDone: (id) => void setDone.run(nowIso(), id),
    setPayload: (id, payload) => void setPayloadJson.run(JSON.stringify(payload), nowIso(), id),
    retryLater: (id, nextAttemptAt, error) =>
      void setRetry.run(nextAttemptAt, redactedJson(error), nowIso(), id),
    park: (id, error) => void setParked.run(redactedJson(error), nowIso(), id),
    unpark: (id, now = 0) => void setUnparked.run(now, nowIso(), id),
    cancel: (id) => void deleteOpen.run(id),

    release: (id) => void resetOne.run(nowIso(), id),

    recoverInFlight() {
      return db.transaction(() => {
        const rows = selectInFlight.all();
        resetInFlight.run(nowIso());
        return rows.map((row) => ({ ...toEntry(row), state: 'pending' as const }));
      });
    },

    get,
    list(options = {}) {
      const rows =
        options.reportId === undefined
          ? (options.includeDone ? selectAll : selectOpen).all()
          : (options.includeDone ? selectAllOf : selectOpenOf).all(options.reportId);
      return rows.map(toEntry);
    },
    countUnsent(reportId) {
      return (reportId === undefined ? countOpen.get() : countOpenOf.get(reportId))?.n ?? 0;
    },
    pruneDone: (olderThan) => deleteDone.run(olderThan).changes,
  };
}
