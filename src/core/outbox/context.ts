import type { ResearcherApi } from '../api';
import type { Store } from '../store';
import type { EngineEvents } from '../engine/events';

/** What the outbox needs from the engine: the account's API, its mirror and the event bus. */
export interface OutboxContext {
  api: ResearcherApi;
  store: Store;
  events: EngineEvents;
  now(): number;
  /** The server changed because of us: the sync should look soon (e.g. for the agent's answer). */
  requestSync(): void;
  /** The account's disk: a refused write pauses the worker, a recorded attempt resumes it. */
  storage: StoragePort;
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
