import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { Engine, type EngineOptions } from '../../../src/core/engine';
import { KeytarSecretStore } from '../../../src/core/secrets';
import {
  BRIDGE_CALLS,
  BRIDGE_EVENTS,
  type BridgeEventName,
  type BridgeEvents,
} from '../../../src/shared/bridge/contract';
import { FAST_RETRY } from '../../engine/harness';
import {
  openSandbox,
  pickPrograms,
  writeKey,
  type SandboxClient,
  type WorldAccount,
} from '../../support/sandbox-client';
import {
  installBridge,
  type BridgeFailure,
  type BridgeReply,
  type TestPageGlobals,
} from './page-bridge';

export interface HostOptions {
  /** The researcher's sandbox account (default: verified, payments ready). */
  account?: { email_verified?: boolean; payments_status?: string };
  rateLimits?: 'spec' | 'off';
  /** Engine settings beyond the test defaults (fast retries, user-driven polls). */
  engine?: Partial<Omit<EngineOptions, 'dataDir' | 'secrets'>>;
}

export interface RecordedCall {
  name: string;
  /** Arguments as the renderer sent them; an API key is replaced by "<key>". */
  args: unknown[];
}

const callNames = new Set<string>(BRIDGE_CALLS);

/**
 * Stands in for Electron main + preload: a real sandbox, a real Engine on a temporary data folder
 * (real keychain), and `window.bountyDesk` in the page forwarding every call to that engine.
 * Shell actions (`openExternal`, `openWebsite`) are recorded and never performed; downloads are
 * saved under the data folder instead of going through a save dialog.
 */
export class BridgeHost {
  readonly calls: RecordedCall[] = [];
  readonly external: string[] = [];
  readonly websites: string[] = [];
  readonly events: { [E in BridgeEventName]?: BridgeEvents[E][] } = {};
  readonly #pages = new Set<Page>();

  private constructor(
    readonly sandbox: SandboxClient,
    readonly account: WorldAccount,
    readonly programs: ReturnType<typeof pickPrograms>,
    readonly dataDir: string,
    readonly engine: Engine,
    readonly key: string,
  ) {
    for (const name of BRIDGE_EVENTS) {
      engine.events.on(name, (payload) => {
        ((this.events[name] ??= []) as unknown[]).push(payload);
        this.#forward(name, payload);
      });
    }
  }

  static async open(options: HostOptions = {}): Promise<BridgeHost> {
    const sandbox = await openSandbox({ rateLimits: options.rateLimits ?? 'off' });
    const world = await sandbox.world();
    const account = await sandbox.newAccount(
      options.account ?? { email_verified: true, payments_status: 'ready' },
    );
    const dataDir = await mkdtemp(join(tmpdir(), 'renderer-e2e-'));
    const engine = new Engine({
      dataDir: join(dataDir, 'app'),
      secrets: new KeytarSecretStore(),
      retry: FAST_RETRY,
      // Polls happen when the user asks ("Sync now"), so every step of a test is deterministic.
      cadences: { afterActionMs: 60_000 },
      ...options.engine,
    });
    await engine.open();
    return new BridgeHost(
      sandbox,
      account,
      pickPrograms(world),
      dataDir,
      engine,
      writeKey(account),
    );
  }

  /** Signs in from the Node side, as main does when it restores a saved account. */
  async signIn(): Promise<void> {
    await this.engine.connect({ serverUrl: this.sandbox.url, apiKey: this.key, sandbox: true });
  }

  /** Gives the page its bridge; call before the page loads the app. */
  async attach(page: Page): Promise<void> {
    this.#pages.add(page);
    page.once('close', () => this.#pages.delete(page));
    await page.exposeBinding('__bridgeCall', async (_source, name: string, args: unknown[]) =>
      this.#reply(name, args),
    );
    await page.addInitScript(installBridge, {
      calls: [...BRIDGE_CALLS],
      events: [...BRIDGE_EVENTS],
    });
  }

  /** What main would push on its own (a notification click, a menu command). */
  emit<E extends BridgeEventName>(event: E, payload: BridgeEvents[E]): void {
    this.#forward(event, payload);
  }

  /** Creates a file on disk (evidence to attach or drop) and returns its path. */
  async file(name: string, bytes: string | Uint8Array): Promise<string> {
    const dir = join(this.dataDir, 'files');
    await mkdir(dir, { recursive: true });
    const path = join(dir, name);
    await writeFile(path, bytes);
    return path;
  }

  /** Lets `bountyDeskFiles.pathForFile` answer for a file the browser creates (file chooser). */
  async registerFile(page: Page, path: string): Promise<void> {
    await page.evaluate(
      ({ name, path: p }) => {
        (globalThis as unknown as TestPageGlobals).__bridgeFiles.byName[name] = p;
      },
      { name: basename(path), path },
    );
  }

  /**
   * Drops files on a target the way a user drags them from the file manager: dragenter, dragover
   * and drop with a DataTransfer of File objects, at a point inside the target (default: near its
   * bottom-left, past the last line of text).
   */
  async dropFiles(
    target: Locator,
    files: { path: string; bytes: string; type?: string }[],
    at?: { x: number; y: number },
  ): Promise<void> {
    const box = await target.boundingBox();
    if (!box) throw new Error('drop target is not visible');
    const point = at ?? { x: 24, y: box.height - 12 };
    const clientX = box.x + point.x;
    const clientY = box.y + point.y;
    const dataTransfer = await target.page().evaluateHandle(
      (list) => {
        const g = globalThis as unknown as TestPageGlobals & {
          DataTransfer: new () => { items: { add(file: object): unknown } };
          File: new (parts: string[], name: string, options: { type: string }) => { name: string };
        };
        const transfer = new g.DataTransfer();
        for (const f of list) {
          const file = new g.File([f.bytes], f.name, { type: f.type });
          g.__bridgeFiles.byFile.set(file, f.path);
          transfer.items.add(file);
        }
        return transfer;
      },
      files.map((f) => ({
        name: basename(f.path),
        path: f.path,
        bytes: f.bytes,
        type: f.type ?? '',
      })),
    );
    for (const type of ['dragenter', 'dragover', 'drop']) {
      await target.dispatchEvent(type, {
        dataTransfer,
        clientX,
        clientY,
        bubbles: true,
        cancelable: true,
      });
    }
    await dataTransfer.dispose();
  }

  async close(): Promise<void> {
    this.#pages.clear();
    await this.engine.signOut().catch(() => undefined);
    await this.engine.close().catch(() => undefined);
    await this.sandbox.close();
    await rm(this.dataDir, { recursive: true, force: true });
  }

  #forward(event: string, payload: unknown): void {
    for (const page of this.#pages) {
      if (page.isClosed()) continue;
      page
        .evaluate(
          ({ event: e, payload: p }) => {
            const g = globalThis as unknown as Partial<TestPageGlobals>;
            g.__bridgeEmit?.(e, p);
          },
          { event, payload: payload as object },
        )
        .catch(() => undefined);
    }
  }

  async #reply(name: string, args: unknown[]): Promise<BridgeReply> {
    this.calls.push({ name, args: redact(name, args) });
    try {
      return { ok: true, value: await this.#dispatch(name, args) };
    } catch (error) {
      return { ok: false, error: plainError(error) };
    }
  }

  async #dispatch(name: string, args: unknown[]): Promise<unknown> {
    if (!callNames.has(name)) throw new Error(`Unknown bridge call: ${name}`);
    switch (name) {
      case 'connectSandbox':
        return this.engine.connect({
          serverUrl: this.sandbox.url,
          apiKey: this.key,
          sandbox: true,
        });
      case 'openExternal':
        this.external.push(String(args[0]));
        return /^(https?:|mailto:)/i.test(String(args[0]));
      case 'openWebsite':
        this.websites.push(String(args[0]));
        return true;
      case 'downloadFile':
        return this.#download(String(args[0]), String(args[1]));
      default: {
        const engine = this.engine as unknown as Record<string, (...a: unknown[]) => unknown>;
        const method = engine[name];
        if (typeof method !== 'function') throw new Error(`The engine has no call ${name}`);
        return await method.apply(this.engine, args);
      }
    }
  }

  /** Main asks where to save; the test bridge saves under the data folder. */
  async #download(reportId: string, fileId: string): Promise<{ savedTo: string }> {
    const view = await this.engine.getReport(reportId);
    const names = new Map<string, string>();
    for (const [id, file] of Object.entries(view?.report?.attachments ?? {}))
      names.set(id, file.name);
    for (const message of view?.messages ?? []) {
      for (const file of message.attachments) names.set(file.id, file.name);
    }
    const dir = join(this.dataDir, 'downloads');
    await mkdir(dir, { recursive: true });
    const name = basename(names.get(fileId) ?? fileId).replace(/^\.+/, '_');
    return this.engine.downloadFile(reportId, fileId, join(dir, `${fileId}-${name}`));
  }
}

function redact(name: string, args: unknown[]): unknown[] {
  if (name !== 'connect') return args;
  return args.map((a) => (a && typeof a === 'object' ? { ...a, apiKey: '<key>' } : a));
}

function plainError(error: unknown): BridgeFailure {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const e = error as Error &
    Partial<Record<'field' | 'code' | 'requestId', unknown>> & {
      status?: unknown;
    };
  return {
    name: e.name,
    message: e.message,
    ...(typeof e.field === 'string' ? { field: e.field } : {}),
    ...(typeof e.code === 'string' ? { code: e.code } : {}),
    ...(typeof e.status === 'number' ? { status: e.status } : {}),
    ...(typeof e.requestId === 'string' ? { requestId: e.requestId } : {}),
  };
}
