import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

const FIXTURE = fileURLToPath(new URL('./fixtures/engine-child.ts', import.meta.url));

export interface ChildConfig {
  dataDir: string;
  outboxConcurrency?: number;
  budgetLimit?: number;
  afterActionMs?: number;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** The engine in a child process (test/engine/fixtures/engine-child.ts), killable with SIGKILL. */
export class EngineChild {
  readonly #proc: ChildProcess;
  readonly #pending = new Map<number, Pending>();
  readonly #exited: Promise<void>;
  /** Everything the child wrote to stderr (a test scans it for the key). */
  stderr = '';
  /** Everything the child wrote to stdout. */
  stdout = '';
  #nextId = 1;
  #dead = false;

  private constructor(proc: ChildProcess) {
    this.#proc = proc;
    this.#exited = new Promise((resolve) => proc.once('exit', () => resolve()));
    proc.stderr?.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString('utf8');
    });
    proc.once('exit', () => {
      this.#dead = true;
      for (const [, p] of this.#pending) {
        clearTimeout(p.timer);
        p.reject(new Error('engine process exited'));
      }
      this.#pending.clear();
    });
  }

  /** Starts the process and waits until its engine has opened the data folder. */
  static async start(
    config: ChildConfig,
    env: NodeJS.ProcessEnv = process.env,
  ): Promise<{ child: EngineChild; signedIn: boolean }> {
    const proc = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
      env: { ...env, CHILD_CONFIG: JSON.stringify(config) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const child = new EngineChild(proc);
    const ready = new Promise<boolean>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('engine process did not start')), 20_000);
      const lines = createInterface({ input: proc.stdout as NodeJS.ReadableStream });
      lines.on('line', (line) => {
        child.stdout += `${line}\n`;
        const message = JSON.parse(line) as {
          ready?: boolean;
          signedIn?: boolean;
          id?: number;
          ok?: boolean;
          result?: unknown;
          error?: { name: string; message: string };
        };
        if (message.ready) {
          clearTimeout(timer);
          resolve(message.signedIn === true);
          return;
        }
        const pending = message.id === undefined ? undefined : child.#pending.get(message.id);
        if (!pending || message.id === undefined) return;
        child.#pending.delete(message.id);
        clearTimeout(pending.timer);
        if (message.ok) pending.resolve(message.result);
        else {
          const error = new Error(message.error?.message ?? 'failed');
          error.name = message.error?.name ?? 'Error';
          pending.reject(error);
        }
      });
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`engine process exited with ${code}: ${child.stderr.slice(-2000)}`));
      });
    });
    return { child, signedIn: await ready };
  }

  call<T = unknown>(method: string, ...args: unknown[]): Promise<T> {
    const id = this.#nextId++;
    if (this.#dead) return Promise.reject(new Error('engine process exited'));
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`engine call ${method} timed out`));
      }, 120_000);
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      this.#proc.stdin?.write(`${JSON.stringify({ id, method, args })}\n`);
    });
  }

  /** kill -9: no shutdown code runs in the engine. */
  async kill(): Promise<void> {
    this.#proc.kill('SIGKILL');
    await this.#exited;
  }

  /** A clean stop: stdin closes, the engine closes its store, the process exits. */
  async stop(): Promise<void> {
    this.#proc.stdin?.end();
    const timer = setTimeout(() => this.#proc.kill('SIGKILL'), 10_000);
    await this.#exited;
    clearTimeout(timer);
  }
}
