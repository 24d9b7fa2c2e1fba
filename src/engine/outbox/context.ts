import type { ReportInput } from '@shared/api';
import type { ResearcherApi } from '../api';
import type { Store } from '../store';
import type { EngineEvents } from '../events/engine-events';

/**
 * What the outbox needs from the engine: the account's API, its mirror, the event bus, and the
 * check every write carrying the researcher's words or files passes right before it leaves.
 */
export interface OutboxContext {
  api: ResearcherApi;
  store: Store;
  events: EngineEvents;
  outgoing: OutgoingCheck;
  now(): number;
  /** The server changed because of us: the sync should look soon (e.g. for the agent's answer). */
  requestSync(): void;
  /** The account's disk: a refused write pauses the worker, a recorded attempt resumes it. */
  storage: StoragePort;
}

/**
 * The credential check on the three writes that carry the researcher's text or files: a draft
 * save, a file upload and a message. It runs on exactly what is about to be sent and is awaited,
 * so nothing leaves while a scan is pending; a refusal throws, which parks the write until the
 * researcher decides. The engine gives its credential scan (SecretCommands) as this port.
 */
export interface OutgoingCheck {
  checkDraft(
    reportId: string,
    content: Pick<ReportInput, 'title' | 'asset' | 'description'>,
  ): Promise<void>;
  checkFile(reportId: string, fileId: string): Promise<void>;
  checkMessage(reportId: string, body: string): Promise<void>;
}

export interface StoragePort {
  /** Says whether `error` is the disk's (a full disk), and notes it; false for anything else. */
  failed(error: unknown): boolean;
  /** A write of the worker's was recorded: the disk takes writes again. */
  wrote(): void;
}

/** What one attempt at an entry came to. Thrown ApiErrors are classified by the worker. */
export type Outcome =
  | { kind: 'done' }
  /** Try the same entry again right away (e.g. after a clean merge). */
  | { kind: 'again' }
  | { kind: 'later'; delayMs: number; error: unknown }
  | { kind: 'park'; error: unknown };

export const DONE: Outcome = { kind: 'done' };
export const AGAIN: Outcome = { kind: 'again' };
