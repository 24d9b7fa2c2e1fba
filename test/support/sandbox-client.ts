/**
 * A tiny fetch wrapper for tests that talk to the sandbox (sandbox-contract.md).
 *
 * `openSandbox()` starts a sandbox in-process on a free port; `api()` sends one researcher-API
 * request and, unless told otherwise, checks the response against the published contract
 * (openapi-validator), so every body a test reads has been validated. Control-route helpers
 * (`reset`, `act`, `payout`, `faults`, `clock`, ...) throw unless the sandbox answers 200.
 */
import http from 'node:http';
import { startSandbox } from '../../src/sandbox';
import type { components } from '../../src/shared/api/schema';
import {
  ContractMismatchError,
  expectResponseMatches,
  matchPathTemplate,
} from './openapi-validator';
import type { Report } from '../../src/shared/api';

export type Schemas = components['schemas'];
export type {
  Report,
  ReportSummary,
  ReportPage,
  ReportInput,
  Program,
  ProgramPage,
  Me,
  PaymentsStatus,
  MessageList,
  ApiKey,
  NewApiKey,
  ApiKeyList,
} from '../../src/shared/api';

export interface ErrorBody {
  detail: string;
  code: string;
  current?: Report;
}

import type {
  World,
  WorldAccount,
  WorldKey,
  WorldProgram,
} from '../../src/shared/api/sandbox-world';

export type { World, WorldAccount, WorldKey, WorldProgram };

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface ApiOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** The raw `Authorization` header value (wins over `token`), for malformed-header tests. */
  authorization?: string;
  /** A JSON body. */
  body?: unknown;
  /** Raw bytes or text sent as is (file uploads, malformed JSON). */
  rawBody?: Uint8Array | string;
  /** `Content-Type` of the request (default `application/json` with `body`). */
  contentType?: string;
  query?: Query;
  headers?: Record<string, string>;
  /**
   * Check the response against the contract: `true` (default) infers the path template,
   * a string names it, `false` skips the check (only for paths the contract does not have).
   */
  validate?: boolean | string;
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response is JSON, otherwise the raw bytes. */
  body: T;
}

export interface SlowUpload {
  /** Sends the rest of the body and resolves with the response. */
  finish(): Promise<ApiResponse<Report | ErrorBody>>;
}

export interface SandboxOptions {
  rateLimits?: 'spec' | 'off';
}

function withQuery(base: string, path: string, query?: Query): URL {
  const url = new URL(path, base);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
  }
  return url;
}

function parseBody(buffer: Buffer, contentType: string | null): unknown {
  if (buffer.byteLength > 0 && contentType !== null && /json/i.test(contentType)) {
    try {
      return JSON.parse(buffer.toString('utf8')) as unknown;
    } catch {
      throw new ContractMismatchError(
        `response says ${contentType} but is not JSON: ${buffer.toString('utf8').slice(0, 300)}`,
      );
    }
  }
  return buffer;
}

export class SandboxClient {
  constructor(
    readonly url: string,
    private readonly stop: () => unknown,
  ) {}

  async close(): Promise<void> {
    await this.stop();
  }

  private check(method: string, path: string, response: ApiResponse, validate?: boolean | string) {
    if (!path.startsWith('/api')) return;
    // Part 2 of the API document: each response carries X-Request-ID.
    if (!response.headers.get('x-request-id')) {
      throw new ContractMismatchError(
        `${method} ${path} → ${response.status} has no X-Request-ID header`,
      );
    }
    if (validate === false) return;
    const template = typeof validate === 'string' ? validate : matchPathTemplate(path);
    if (template === undefined) {
      throw new ContractMismatchError(
        `${method} ${path} matches no path of the contract; pass validate: false if intended`,
      );
    }
    expectResponseMatches(method, template, response.status, response.body, response.headers);
  }

  /** One researcher-API request; the response is checked against the contract. */
  async api<T = unknown>(
    method: string,
    path: string,
    options: ApiOptions = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.authorization !== undefined) headers.authorization = options.authorization;
    else if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    let body: Uint8Array | string | undefined;
    if (options.rawBody !== undefined) {
      body = options.rawBody;
      if (options.contentType !== undefined) headers['content-type'] = options.contentType;
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = options.contentType ?? 'application/json';
    } else if (options.contentType !== undefined) {
      headers['content-type'] = options.contentType;
    }
    const res = await fetch(withQuery(this.url, path, options.query), {
      method,
      headers,
      body,
    });
    const buffer = Buffer.from(await res.arrayBuffer());
    const response: ApiResponse = {
      status: res.status,
      headers: res.headers,
      body: parseBody(buffer, res.headers.get('content-type')),
    };
    this.check(method, path, response, options.validate);
    return response as ApiResponse<T>;
  }

  /**
   * Starts a file upload whose body arrives in two parts: the first half now, the rest on
   * `finish()`. While it is unfinished the upload is in progress on the server.
   */
  async slowUpload(
    path: string,
    options: { token: string; query: Query; bytes: Uint8Array; contentType?: string },
  ): Promise<SlowUpload> {
    const url = withQuery(this.url, path, options.query);
    const half = Math.max(1, Math.floor(options.bytes.byteLength / 2));
    const req = http.request(url, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${options.token}`,
        'content-type': options.contentType ?? 'application/octet-stream',
        'content-length': String(options.bytes.byteLength),
      },
    });
    let answered = false;
    const done = new Promise<ApiResponse<Report | ErrorBody>>((resolve, reject) => {
      req.on('response', (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          try {
            const headers = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              if (typeof value === 'string') headers.set(name, value);
              else if (Array.isArray(value)) headers.set(name, value.join(', '));
            }
            const response: ApiResponse = {
              status: res.statusCode ?? 0,
              headers,
              body: parseBody(Buffer.concat(chunks), headers.get('content-type')),
            };
            this.check('PUT', url.pathname, response);
            resolve(response as ApiResponse<Report | ErrorBody>);
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
        res.on('error', reject);
      });
      req.on('error', (error) => {
        if (!answered) reject(error);
      });
    });
    req.write(options.bytes.subarray(0, half));
    // Give the server time to receive the headers and the first part.
    await new Promise((resolve) => setTimeout(resolve, 250));
    return {
      finish: async () => {
        if (!answered) req.end(options.bytes.subarray(half));
        return done;
      },
    };
  }

  /** A control route (`/__sandbox/...`); throws unless the answer is 200. */
  async control<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(new URL(path, this.url), {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== 200) {
      throw new Error(`control ${method} ${path} gave ${res.status}: ${text.slice(0, 500)}`);
    }
    return (text.length > 0 ? JSON.parse(text) : {}) as T;
  }

  world(): Promise<World> {
    return this.control<World>('GET', '/__sandbox/world');
  }

  async reset(): Promise<void> {
    await this.control('POST', '/__sandbox/reset');
  }

  act(
    reportId: string,
    body: { actor: 'agent' | 'founder'; status: string; message?: string },
  ): Promise<unknown> {
    return this.control('POST', `/__sandbox/reports/${reportId}/act`, body);
  }

  /** The triage agent moves the report to needs_info with `question` in its thread. */
  askForInformation(reportId: string, question: string): Promise<unknown> {
    return this.act(reportId, { actor: 'agent', status: 'needs_info', message: question });
  }

  payout(reportId: string, body: { status: string; amount_cents?: number }): Promise<unknown> {
    return this.control('POST', `/__sandbox/reports/${reportId}/payout`, body);
  }

  /** The team accepts the report with `message`; its payout of `amountCents` goes on to received. */
  async acceptAndPay(reportId: string, message: string, amountCents: number): Promise<void> {
    await this.act(reportId, { actor: 'founder', status: 'accepted', message });
    for (const status of ['approving', 'transferred', 'received']) {
      await this.payout(reportId, { status, amount_cents: amountCents });
    }
  }

  async faults(body: {
    rate: number;
    statuses?: number[];
    reset_connection?: boolean;
    latency_ms?: number;
    seed?: number;
  }): Promise<void> {
    await this.control('POST', '/__sandbox/faults', body);
  }

  async clearFaults(): Promise<void> {
    await this.control('DELETE', '/__sandbox/faults');
  }

  async clock(advanceSeconds: number): Promise<void> {
    await this.control('POST', '/__sandbox/clock', { advance_seconds: advanceSeconds });
  }

  async patchAccount(
    uid: string,
    body: { email_verified?: boolean; payments_status?: string; password_changed?: boolean },
  ): Promise<void> {
    await this.control('PATCH', `/__sandbox/accounts/${uid}`, body);
  }

  async patchProgram(
    id: string,
    body: {
      intake?: string;
      pool_paused?: boolean;
      published?: boolean;
      private?: boolean;
      invite?: string;
      policy?: {
        scope?: string;
        exclusions?: string;
        rules?: string;
        eligibility?: string;
        disclosure?: string;
        rewards?: Record<string, number>;
      };
    },
  ): Promise<void> {
    await this.control('PATCH', `/__sandbox/programs/${id}`, body);
  }

  /** Every report id the key's account holds, page by page through `GET /api/reports`. */
  async reportIds(token: string): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page: ApiResponse<{ reports: { id: string }[]; next_cursor: string | null }> =
        await this.api('GET', '/api/reports', {
          token,
          query: { limit: 100, ...(cursor ? { cursor } : {}) },
        });
      ids.push(...page.body.reports.map((r) => r.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    return ids;
  }

  newAccount(
    body: { email_verified?: boolean; payments_status?: string } = {},
  ): Promise<WorldAccount> {
    return this.control<WorldAccount>('POST', '/__sandbox/accounts', body);
  }

  newKey(
    uid: string,
    body: { scope: 'read' | 'write'; expires_in_days?: number | null },
  ): Promise<WorldKey> {
    return this.control<WorldKey>('POST', `/__sandbox/accounts/${uid}/keys`, body);
  }
}

/** Starts a sandbox in this process (manual agent, any free port on 127.0.0.1). */
export async function openSandbox(options: SandboxOptions = {}): Promise<SandboxClient> {
  const sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    agent: 'manual',
    rateLimits: options.rateLimits ?? 'off',
  });
  return new SandboxClient(sandbox.url.replace(/\/$/, ''), () => sandbox.close());
}

/** A new researcher of the sandbox, the seeded programs to report to, and the researcher's write key. */
export interface Researcher {
  sandbox: SandboxClient;
  account: WorldAccount;
  programs: ReturnType<typeof pickPrograms>;
  key: string;
}

/**
 * A sandbox with a new researcher in it, ready to report unless `account` says otherwise (e-mail
 * verified, payments ready).
 */
export async function openWithResearcher(
  options: SandboxOptions & { account?: Parameters<SandboxClient['newAccount']>[0] } = {},
): Promise<Researcher> {
  const sandbox = await openSandbox({ rateLimits: options.rateLimits ?? 'off' });
  const world = await sandbox.world();
  const account = await sandbox.newAccount(
    options.account ?? { email_verified: true, payments_status: 'ready' },
  );
  return { sandbox, account, programs: pickPrograms(world), key: writeKey(account) };
}

export function writeKey(account: WorldAccount): string {
  const key = account.keys.find((k) => k.scope === 'write');
  if (!key) throw new Error(`account ${account.uid} has no write key`);
  return key.key;
}

export function readKey(account: WorldAccount): string {
  const key = account.keys.find((k) => k.scope === 'read');
  if (!key) throw new Error(`account ${account.uid} has no read key`);
  return key.key;
}

function pick<T>(items: T[], what: string, test: (item: T) => boolean): T {
  const found = items.find(test);
  if (found === undefined) throw new Error(`the seeded world has no ${what}`);
  return found;
}

/** The seeded accounts the contract promises, chosen by their properties. */
export function pickAccounts(world: World): {
  ready: WorldAccount;
  unverified: WorldAccount;
  notStarted: WorldAccount;
} {
  const hasKeys = (a: WorldAccount) =>
    a.keys.some((k) => k.scope === 'write') && a.keys.some((k) => k.scope === 'read');
  return {
    ready: pick(
      world.accounts,
      'verified account with payments ready and both keys',
      (a) => a.email_verified && a.payments_status === 'ready' && hasKeys(a),
    ),
    unverified: pick(world.accounts, 'unverified account', (a) => !a.email_verified),
    notStarted: pick(
      world.accounts,
      'account with payments not_started',
      (a) => a.payments_status === 'not_started',
    ),
  };
}

/** The seeded programs the contract promises, chosen by their properties. */
export function pickPrograms(world: World): {
  open: WorldProgram;
  paused: WorldProgram;
  closed: WorldProgram;
  poolPaused: WorldProgram;
  privateInvited: WorldProgram;
  unpublished: WorldProgram;
} {
  const ps = world.programs;
  const visible = (p: WorldProgram) => p.published && !p.private;
  return {
    open: pick(
      ps,
      'open public program',
      (p) => visible(p) && p.intake === 'open' && !p.pool_paused,
    ),
    paused: pick(ps, 'program with intake paused', (p) => visible(p) && p.intake === 'paused'),
    closed: pick(ps, 'program with intake closed', (p) => visible(p) && p.intake === 'closed'),
    poolPaused: pick(
      ps,
      'open program with pool_paused',
      (p) => visible(p) && p.intake === 'open' && p.pool_paused,
    ),
    privateInvited: pick(
      ps,
      'private program with an invited account',
      (p) => p.published && p.private && p.invited.length > 0,
    ),
    unpublished: pick(ps, 'unpublished program', (p) => !p.published),
  };
}
