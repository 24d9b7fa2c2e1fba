/** Test helpers: a sandbox per suite and small typed HTTP calls against it. */
import { randomUUID } from '../support/random';
import { afterAll, beforeAll } from 'vitest';
import { startSandbox } from '../../src/sandbox';
import type { SandboxHandle, SandboxOptions } from '../../src/sandbox';
import { COMPLETE_DESCRIPTION as DESCRIPTION } from '../support/fixtures';

import type { World, WorldAccount } from '../../src/shared/api/sandbox-world';

export type { WorldAccount };
export type WorldView = World;

export interface Res<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export class Sbx {
  #handle: SandboxHandle | undefined;

  private constructor(handle?: SandboxHandle) {
    this.#handle = handle;
  }

  static async start(options: SandboxOptions = {}): Promise<Sbx> {
    return new Sbx(await startSandbox({ agent: 'manual', rateLimits: 'off', ...options }));
  }

  /** A sandbox for the whole test file: started before its first test, closed after its last. */
  static perFile(options: SandboxOptions = {}): Sbx {
    const sbx = new Sbx();
    beforeAll(async () => {
      sbx.#handle = await startSandbox({ agent: 'manual', rateLimits: 'off', ...options });
    });
    afterAll(() => sbx.#handle?.close());
    return sbx;
  }

  get handle(): SandboxHandle {
    if (!this.#handle) throw new Error('the sandbox is not started yet: use it inside a test');
    return this.#handle;
  }

  get url(): string {
    return this.handle.url;
  }

  close(): Promise<void> {
    return this.handle.close();
  }

  async call<T = Record<string, unknown>>(
    method: string,
    path: string,
    options: { token?: string; body?: unknown; raw?: string | Buffer; type?: string } = {},
  ): Promise<Res<T>> {
    const headers: Record<string, string> = {};
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    let body: string | Buffer | undefined;
    if (options.raw !== undefined) {
      body = options.raw;
      if (options.type) headers['content-type'] = options.type;
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(`${this.url}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      // not JSON (file download)
    }
    return { status: res.status, headers: res.headers, body: parsed as T };
  }

  async world(): Promise<WorldView> {
    return (await this.call<WorldView>('GET', '/__sandbox/world')).body;
  }

  async account(uid: string): Promise<WorldAccount> {
    const a = (await this.world()).accounts.find((x) => x.uid === uid);
    if (!a) throw new Error(`no account ${uid}`);
    return a;
  }

  /** A fresh account (verified, payments ready unless told otherwise); returns its write key. */
  async newAccount(
    body: { email_verified?: boolean; payments_status?: string } = {},
  ): Promise<{ account: WorldAccount; write: string; read: string }> {
    const account = (await this.call<WorldAccount>('POST', '/__sandbox/accounts', { body })).body;
    const key = (scope: string): string => account.keys.find((k) => k.scope === scope)?.key ?? '';
    return { account, write: key('write'), read: key('read') };
  }

  advance(seconds: number): Promise<Res> {
    return this.call('POST', '/__sandbox/clock', { body: { advance_seconds: seconds } });
  }
}

export interface ReportBody {
  id: string;
  status: string;
  revision: number;
  updated_at: string;
  attachments: Record<
    string,
    {
      state: string;
      sha256: string;
      size: number;
      reply?: boolean | null;
      message_id?: string | null;
    }
  >;
  submission: { program: { policy_version: number }; attachments: Record<string, unknown> } | null;
  decision: { outcome: string } | null;
  payout: { status: string; amount_cents: number } | null;
  code?: string;
  detail?: string;
  current?: ReportBody;
}

export function draftInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    program_id: 'acme-web',
    title: 'XSS in search',
    asset: 'https://acme-web.example/search',
    description: DESCRIPTION,
    cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:L/I:L/A:N',
    revision: 0,
    ...overrides,
  };
}

export async function createDraft(
  sbx: Sbx,
  token: string,
  overrides: Record<string, unknown> = {},
): Promise<ReportBody> {
  const res = await sbx.call<ReportBody>('PUT', `/api/reports/${randomUUID()}`, {
    token,
    body: draftInput(overrides),
  });
  if (res.status !== 200) throw new Error(`draft: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function upload(
  sbx: Sbx,
  token: string,
  report: ReportBody,
  bytes: string,
  name = 'proof.txt',
  fileId: string = randomUUID(),
): Promise<Res<ReportBody> & { fileId: string }> {
  const res = await sbx.call<ReportBody>(
    'PUT',
    `/api/reports/${report.id}/files/${fileId}?name=${encodeURIComponent(name)}&revision=${report.revision}`,
    { token, raw: bytes, type: 'text/plain' },
  );
  return { ...res, fileId };
}

export async function submit(
  sbx: Sbx,
  token: string,
  report: ReportBody,
): Promise<Res<ReportBody>> {
  return sbx.call<ReportBody>('POST', `/api/reports/${report.id}/submit`, {
    token,
    body: { revision: report.revision },
  });
}

export { DESCRIPTION };
