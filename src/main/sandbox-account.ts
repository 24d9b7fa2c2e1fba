import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Engine } from '@engine/commands';
import type { SandboxOptions } from '../sandbox';
import type { WorldAccount } from '@shared/api/sandbox-world';
import type { AccountView } from '@shared/bridge/views';

/** The part of `startSandbox` this module uses (the real one in the app and in tests). */
export type StartSandbox = (
  options: SandboxOptions,
) => Promise<{ url: string; close(): Promise<void> }>;

/** `GET <url>/__sandbox/world`: the sandbox's accounts with their keys (sandbox only). */
export async function fetchWorldAccounts(url: string): Promise<WorldAccount[]> {
  const response = await fetch(`${url}/__sandbox/world`);
  if (!response.ok) throw new Error(`The sandbox did not list its accounts (${response.status}).`);
  const body = (await response.json()) as { accounts?: WorldAccount[] };
  return body.accounts ?? [];
}

/**
 * The demo user: verified e-mail, payments ready, a write key. `dana` comes first when present:
 * her seeded reports in every status make the first screen show what the app does
 * (docs/sandbox.md).
 */
export const PREFERRED_DEMO_UID = 'dana';

export function demoAccount(accounts: WorldAccount[]): { uid: string; key: string } {
  const ordered = [...accounts].sort(
    (a, b) => Number(b.uid === PREFERRED_DEMO_UID) - Number(a.uid === PREFERRED_DEMO_UID),
  );
  for (const account of ordered) {
    const key = account.keys.find((k) => k.scope === 'write')?.key;
    if (account.email_verified && account.payments_status === 'ready' && key) {
      return { uid: account.uid, key };
    }
  }
  throw new Error('The sandbox has no verified account with payments ready and a write key.');
}

/** What main remembers about the sandbox: that it was chosen, and the port it had last time. */
interface SandboxChoice {
  sandbox: { port: number } | null;
}

export interface SandboxAccountOptions {
  engine: Pick<Engine, 'connect' | 'open' | 'signOut' | 'getAccount'>;
  /** `<userData>/sandbox`: the sandbox's own state and file bytes survive restarts. */
  dataDir: string;
  /** `<userData>/shell.json`: the sandbox choice (never a URL, never a key). */
  choiceFile: string;
  start: StartSandbox;
}

/**
 * The embedded sandbox as an account: started in-process on the loopback interface, signed in as
 * the demo user with the write key the sandbox lists, and restored on the next start. The
 * sandbox's port may change between runs, so main stores the choice, not the URL.
 */
export class SandboxAccount {
  readonly #o: SandboxAccountOptions;
  #running: { url: string; close(): Promise<void> } | null = null;
  #starting: Promise<string> | null = null;

  constructor(options: SandboxAccountOptions) {
    this.#o = options;
  }

  /** The running sandbox's base URL, or null. */
  get url(): string | null {
    return this.#running?.url ?? null;
  }

  /** First run: "Use the sandbox". */
  async connect(): Promise<AccountView> {
    const url = await this.#ensureStarted();
    const { key } = demoAccount(await fetchWorldAccounts(url));
    const account = await this.#o.engine.connect({ serverUrl: url, apiKey: key, sandbox: true });
    await this.#saveChoice({ sandbox: { port: portOf(url) } });
    return account;
  }

  /**
   * Later starts: the sandbox first (when it was chosen), then `engine.open()`. When the sandbox
   * came back on another port, the stored account points at the old URL: sign in again with the
   * same demo key at the new one (the mirror is per server URL, see docs/security.md).
   */
  async restore(): Promise<AccountView | null> {
    const choice = await this.#readChoice();
    if (!choice.sandbox) return this.#o.engine.open();
    const url = await this.#ensureStarted(choice.sandbox.port);
    const account = await this.#o.engine.open();
    if (account && !account.sandbox) {
      // Signed in to a real server since: the sandbox is no longer the choice.
      await this.forget();
      return account;
    }
    if (account?.serverUrl === url) return account;
    if (account) await this.#o.engine.signOut();
    return this.connect();
  }

  /** After sign-out or a real server: forget the choice and stop the sandbox. */
  async forget(): Promise<void> {
    await this.#saveChoice({ sandbox: null });
    await this.close();
  }

  async close(): Promise<void> {
    const running = this.#running;
    this.#running = null;
    this.#starting = null;
    await running?.close();
  }

  async #ensureStarted(preferredPort = 0): Promise<string> {
    if (this.#running) return this.#running.url;
    this.#starting ??= this.#start(preferredPort).finally(() => {
      this.#starting = null;
    });
    return this.#starting;
  }

  async #start(preferredPort: number): Promise<string> {
    const options: SandboxOptions = {
      port: preferredPort,
      host: '127.0.0.1',
      agent: 'auto',
      rateLimits: 'spec',
      dataDir: this.#o.dataDir,
    };
    let handle;
    try {
      handle = await this.#o.start(options);
    } catch (error) {
      // The last port is taken by now: any free one will do.
      if (preferredPort === 0) throw error;
      handle = await this.#o.start({ ...options, port: 0 });
    }
    this.#running = handle;
    return handle.url;
  }

  async #readChoice(): Promise<SandboxChoice> {
    try {
      const parsed = JSON.parse(
        await readFile(this.#o.choiceFile, 'utf8'),
      ) as Partial<SandboxChoice>;
      const port = parsed.sandbox?.port;
      return {
        sandbox:
          typeof port === 'number' && Number.isInteger(port) && port >= 0 && port < 65536
            ? { port }
            : null,
      };
    } catch {
      return { sandbox: null };
    }
  }

  async #saveChoice(choice: SandboxChoice): Promise<void> {
    if (!choice.sandbox) {
      await rm(this.#o.choiceFile, { force: true });
      return;
    }
    await mkdir(dirname(this.#o.choiceFile), { recursive: true });
    const tmp = `${this.#o.choiceFile}.tmp`;
    await writeFile(tmp, `${JSON.stringify(choice)}\n`, { mode: 0o600 });
    await rename(tmp, this.#o.choiceFile);
  }
}

function portOf(url: string): number {
  return Number(new URL(url).port);
}
