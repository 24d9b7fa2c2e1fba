import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { KeyScope, Me } from '@shared/api';
import { isApiKeyShape } from '@shared/api/api-key';
import type { AccountView, StatusView } from '@shared/bridge/views';
import { isApiError, normalizeServerUrl, ResearcherApi } from '../api';
import { InvalidApiKeyError, type SecretStore } from '../secrets';
import {
  accountDir,
  readAccountRecord,
  removeAccountRecord,
  writeAccountRecord,
  type AccountRecord,
} from './account-file';
import { describeError } from '@shared/errors/describe-error';
import { NewerDataError, NotSignedInError, SignInError } from './errors';
import { SchemaTooNewError } from '../store';
import { setAside, type MirrorRecovery } from '../store/open-mirror';
import { EngineEvents } from '../events/engine-events';
import { callsByName } from '@shared/bridge/calls-by-name';
import {
  ENGINE_CALLS,
  routeOf,
  type EngineOwnName,
  type SameMeaning,
  type SessionCalls,
} from './routes';
import { AccountSession, type SessionOptions } from './session';

export interface EngineOptions extends Pick<
  SessionOptions,
  | 'clock'
  | 'cadences'
  | 'retry'
  | 'budgetLimit'
  | 'syncConcurrency'
  | 'fetch'
  | 'outboxConcurrency'
  | 'timeouts'
  | 'log'
> {
  /** The app's data folder: one mirror per account below it. */
  dataDir: string;
  /**
   * The OS keychain. Connect calls `checkAvailable` first, and open when no key comes back, so a
   * missing keychain fails at once with its clear error instead of later (or a sign-out).
   */
  secrets: SecretStore;
  /** Start the sync and the outbox on sign-in (tests may drive them by hand). */
  autoStart?: boolean;
}

/**
 * The engine's calls, as main, tests and benchmarks make them: those the session's groups answer
 * (routed by the bridge's table, see routes.ts) and the engine's own. Where main stands between
 * the page and the engine, the engine's call takes main's arguments (a path for a file token, a
 * destination chosen in main's dialog).
 */
export type EngineCalls = SessionCalls & Pick<Engine, EngineOwnName>;

/** Compile-time: each call the engine answers as the page made it means the same to both. */
const sameMeaning: SameMeaning<EngineCalls> = true;
void sameMeaning;

/**
 * The engine behind the desktop app: sign-in with the key in the OS keychain, the offline
 * mirror, the outbox and the sync. It never imports Electron; main, tests, benchmarks and the
 * browser test bridge drive it through these calls and its events.
 */
export class Engine {
  readonly events = new EngineEvents();
  /**
   * Every call of the engine by name, routed by the bridge's table as the engine process routes
   * them (routes.ts): in-process users (tests, benchmarks, the browser tests' bridge) write
   * `engine.calls.saveDraft(...)` as main writes `client.calls.saveDraft(...)`. Async: signed
   * out, a session's call rejects (NotSignedInError) instead of throwing.
   */
  readonly calls: EngineCalls = callsByName(ENGINE_CALLS, async (name, args) =>
    routeOf(this, name)?.(...args),
  );
  readonly #options: EngineOptions;
  #record: AccountRecord | null = null;
  /** Kept in this process only, to start the session again on a checked mirror. */
  #apiKey: string | null = null;
  #session: AccountSession | null = null;
  /**
   * The account whose data a newer app wrote: nothing of it is opened until the researcher starts
   * with a fresh copy (`startFresh`) or updates the app.
   */
  #blocked: { record: AccountRecord; apiKey: string; found: number; supported: number } | null =
    null;

  constructor(options: EngineOptions) {
    this.#options = options;
  }

  /** Restores the signed-in account, if any; works offline (the mirror answers). */
  async open(): Promise<AccountView | null> {
    const record = await readAccountRecord(this.#options.dataDir);
    if (!record) return null;
    // A key read back proves the keychain works; only "nothing stored" needs the probe, since a
    // missing or locked keychain also answers that (a write-read-delete costs three more trips).
    const key = await this.#options.secrets.get(record.serverUrl);
    // Main restores the account once the engine has opened it: that second open must not start a
    // second session beside the running one (two outboxes would post a queued reply twice).
    if (
      key &&
      this.#session &&
      this.#record?.serverUrl === record.serverUrl &&
      this.#apiKey === key
    ) {
      return this.getAccount();
    }
    if (!key) {
      await this.#checkKeychain();
      // The keychain lost the key (or another app removed it): the user signs in again.
      await removeAccountRecord(this.#options.dataDir);
      return null;
    }
    try {
      this.#begin(record, key);
    } catch (error) {
      if (error instanceof NewerDataError) return null;
      throw error;
    }
    return this.getAccount();
  }

  /**
   * "Start with a fresh copy" after a newer app's data was found: that file is kept aside under a
   * new name (never deleted) and an empty mirror is made and filled from the server.
   */
  async startFresh(): Promise<AccountView> {
    const blocked = this.#blocked;
    if (!blocked) throw new Error('There is no newer data to set aside.');
    setAside(
      join(accountDir(this.#options.dataDir, blocked.record), 'mirror.sqlite'),
      `newer-v${blocked.found}`,
    );
    this.#begin(blocked.record, blocked.apiKey);
    return (await this.getAccount()) as AccountView;
  }

  /**
   * A call failed: the session notes a full disk, so the status says so (see session.ts); a page
   * SQLite found damaged makes the session start again on a checked mirror, which sets a damaged
   * file aside and rebuilds it (docs/engine.md, "The user's disk").
   */
  noteFailure(error: unknown): void {
    this.#session?.noteFailure(error);
  }

  #rechecking: Promise<void> | null = null;
  /** The damaged mirror this run set aside, kept across a restart of the session. */
  #recovery: MirrorRecovery | null = null;

  #recheck(): Promise<void> {
    const record = this.#record;
    const apiKey = this.#apiKey;
    if (this.#rechecking || !record || !apiKey) return this.#rechecking ?? Promise.resolve();
    this.#rechecking = (async () => {
      await this.close();
      this.#begin(record, apiKey, true);
    })()
      .catch(() => undefined)
      .finally(() => {
        this.#rechecking = null;
      });
    return this.#rechecking;
  }

  get session(): AccountSession {
    if (!this.#session) throw new NotSignedInError();
    return this.#session;
  }

  async close(): Promise<void> {
    await this.#session?.stop();
    this.#session = null;
  }

  // ---- account ------------------------------------------------------------------------------

  async connect(input: {
    serverUrl: string;
    apiKey: string;
    sandbox?: boolean;
  }): Promise<AccountView> {
    let serverUrl: string;
    try {
      serverUrl = normalizeServerUrl(input.serverUrl);
    } catch (error) {
      throw new SignInError('serverUrl', error instanceof Error ? error.message : 'not a URL');
    }
    const apiKey = input.apiKey.trim();
    if (!isApiKeyShape(apiKey))
      throw new SignInError('apiKey', new InvalidApiKeyError(apiKey.length).message);
    // Before any request: without a keychain the key could not be kept, so say so first.
    await this.#checkKeychain();
    const probe = new ResearcherApi({
      serverUrl,
      apiKey,
      retry: { networkRetries: 1, serverErrorRetries: 0 },
    });
    let me: Me;
    try {
      me = await probe.getMe({ priority: 'user' });
    } catch (error) {
      if (isApiError(error)) {
        const view = describeError(error);
        // Before sign-in there is no work to keep: say what to check instead.
        const advice =
          error.kind === 'http' ? view.advice : 'Check the server URL and your connection.';
        throw new SignInError(
          error.status === 401 ? 'apiKey' : 'serverUrl',
          `${view.title}. ${advice}`,
        );
      }
      throw error;
    }
    const scope = await probeScope(probe);
    await this.#options.secrets.set(serverUrl, apiKey);
    await this.close();
    const record: AccountRecord = {
      serverUrl,
      uid: me.uid,
      scope,
      sandbox: input.sandbox === true,
    };
    await writeAccountRecord(this.#options.dataDir, record);
    this.#begin(record, apiKey);
    this.session.store.account.setMe(me);
    this.session.store.account.setPayments(me.payments);
    return this.getAccount() as Promise<AccountView>;
  }

  /** Deletes the key from the keychain. The mirror stays, so unsent drafts survive a re-sign-in. */
  async signOut(): Promise<void> {
    const record = this.#record ?? this.#blocked?.record ?? null;
    await this.close();
    this.#record = null;
    this.#apiKey = null;
    this.#blocked = null;
    await removeAccountRecord(this.#options.dataDir);
    if (record) await this.#options.secrets.delete(record.serverUrl);
  }

  async #checkKeychain(): Promise<void> {
    await this.#options.secrets.checkAvailable();
  }

  #begin(record: AccountRecord, apiKey: string, checkMirror = false): void {
    const o = this.#options;
    let session: AccountSession;
    try {
      session = new AccountSession({
        checkMirror,
        onDamaged: () => void this.#recheck(),
        earlierRecovery: this.#recovery,
        serverUrl: record.serverUrl,
        apiKey,
        scope: record.scope,
        dir: accountDir(o.dataDir, record),
        events: this.events,
        ...(o.clock ? { clock: o.clock } : {}),
        ...(o.cadences ? { cadences: o.cadences } : {}),
        ...(o.retry ? { retry: o.retry } : {}),
        ...(o.budgetLimit ? { budgetLimit: o.budgetLimit } : {}),
        ...(o.syncConcurrency ? { syncConcurrency: o.syncConcurrency } : {}),
        ...(o.outboxConcurrency ? { outboxConcurrency: o.outboxConcurrency } : {}),
        ...(o.timeouts ? { timeouts: o.timeouts } : {}),
        ...(o.fetch ? { fetch: o.fetch } : {}),
        ...(o.log ? { log: o.log } : {}),
      });
    } catch (error) {
      if (!(error instanceof SchemaTooNewError)) throw error;
      this.#blocked = { record, apiKey, found: error.found, supported: error.supported };
      throw new NewerDataError(error.found, error.supported);
    }
    this.#blocked = null;
    // A session replaced without a close (a new sign-in) stops: none may keep syncing unseen.
    const replaced = this.#session;
    if (replaced && replaced !== session) void replaced.stop().catch(() => undefined);
    this.#record = record;
    this.#apiKey = apiKey;
    this.#recovery = session.recovery;
    this.#session = session;
    this.#session.store.account.setConnection({
      serverUrl: record.serverUrl,
      keyScope: record.scope,
    });
    if (o.autoStart !== false) this.#session.start();
  }

  async getAccount(): Promise<AccountView | null> {
    if (!this.#record || !this.#session) return null;
    const info = this.#session.store.account.get();
    return {
      serverUrl: this.#record.serverUrl,
      sandbox: this.#record.sandbox,
      scope: this.#record.scope,
      me: info.me,
      payments: info.payments,
    };
  }

  async getStatus(): Promise<StatusView> {
    if (!this.#session) {
      const blocked = this.#blocked;
      return {
        connectivity: 'unknown',
        syncing: false,
        lastSyncAt: null,
        unsent: 0,
        held: 0,
        needsAction: 0,
        unread: 0,
        inbox: [],
        budget: { used: 0, limit: 120 },
        lastError: null,
        mirror: null,
        storage: {
          diskFull: false,
          recovered: null,
          newerData: blocked ? { found: blocked.found, supported: blocked.supported } : null,
        },
      };
    }
    return this.#session.getStatus();
  }
}

/**
 * Me does not say whether a key may write. A withdraw of a report id that cannot exist answers
 * 403 read_only_key for a read key (the method is checked first) and 404 for a write key, and
 * changes nothing either way.
 */
async function probeScope(api: ResearcherApi): Promise<KeyScope> {
  try {
    await api.withdrawReport(randomUUID(), { priority: 'user' });
    return 'write';
  } catch (error) {
    if (isApiError(error) && error.code === 'read_only_key') return 'read';
    return 'write';
  }
}
