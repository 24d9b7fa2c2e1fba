/**
 * Shared building blocks for the conformance tests: valid inputs taken from the API document,
 * assertions on status and error code, and a researcher bound to one bearer token.
 */
import { randomUUID } from '../support/random';
import { afterAll, beforeAll, expect } from 'vitest';
import type {
  ApiKeyList,
  ApiOptions,
  ApiResponse,
  ErrorBody,
  Me,
  MessageList,
  NewApiKey,
  Query,
  Report,
  ReportInput,
  ReportPage,
  SandboxClient,
  SandboxOptions,
  World,
  WorldAccount,
} from '../support/sandbox-client';
import { openSandbox, pickPrograms, readKey, writeKey } from '../support/sandbox-client';

export const uuid = (): string => randomUUID();

/** The template headings (part 2, ReportInput) with text below each. */
export const DESCRIPTION = [
  '## Steps to reproduce',
  '',
  '1. Open https://app.example.com/search?q=%3Cscript%3E',
  '2. The payload runs.',
  '',
  '## Expected behavior',
  '',
  'The query is escaped.',
  '',
  '## Actual behavior',
  '',
  'The script runs in the page.',
  '',
  '## Security impact',
  '',
  'Session theft of any user who opens a link.',
].join('\n');

/** The template headings and nothing below them. */
export const HEADINGS_ONLY = [
  '## Steps to reproduce',
  '',
  '## Expected behavior',
  '',
  '## Actual behavior',
  '',
  '## Security impact',
  '',
].join('\n');

export const CVSS = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N';

export function draftInput(programId: string, overrides: Partial<ReportInput> = {}): ReportInput {
  return {
    program_id: programId,
    title: 'Reflected XSS in search',
    asset: 'https://app.example.com',
    description: DESCRIPTION,
    cvss_vector: CVSS,
    revision: 0,
    ...overrides,
  };
}

/** The Markdown link to a file of a report (part 2, ReportInput). */
export function fileLink(reportId: string, fileId: string, label = 'evidence'): string {
  return `[${label}](/reports/${reportId}/files/${fileId})`;
}

function describeResponse(res: ApiResponse): string {
  const body = res.body instanceof Uint8Array ? `<${res.body.byteLength} bytes>` : res.body;
  return `${res.status} ${JSON.stringify(body)}`.slice(0, 1200);
}

/** The body of a response that must have `status` (200 by default). */
export function ok<T>(res: ApiResponse<T>, status = 200): T {
  if (res.status !== status) {
    throw new Error(`expected ${status}, got ${describeResponse(res as ApiResponse)}`);
  }
  return res.body;
}

/** Asserts an error response's status and `code`; returns the error body. */
export function expectError(res: ApiResponse<unknown>, status: number, code: string): ErrorBody {
  const body = res.body as ErrorBody;
  expect({ status: res.status, code: body?.code }, `response was ${describeResponse(res)}`).toEqual(
    { status, code },
  );
  return body;
}

export const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A researcher bound to one bearer token (an API key or a session token). */
export class Researcher {
  constructor(
    readonly sb: SandboxClient,
    readonly token: string,
  ) {}

  api<T = unknown>(method: string, path: string, options: ApiOptions = {}) {
    return this.sb.api<T>(method, path, { token: this.token, ...options });
  }

  me() {
    return this.api<Me>('GET', '/api/me');
  }

  list(query: Query = {}) {
    return this.api<ReportPage>('GET', '/api/reports', { query });
  }

  get(id: string) {
    return this.api<Report>('GET', `/api/reports/${id}`);
  }

  save(id: string, input: ReportInput | Record<string, unknown>) {
    return this.api<Report>('PUT', `/api/reports/${id}`, { body: input });
  }

  submit(id: string, revision: number) {
    return this.api<Report>('POST', `/api/reports/${id}/submit`, { body: { revision } });
  }

  withdraw(id: string) {
    return this.api<Report>('POST', `/api/reports/${id}/withdraw`);
  }

  upload(
    id: string,
    fileId: string,
    options: { revision: number; name?: string; data?: Uint8Array | string; contentType?: string },
  ) {
    return this.api<Report>('PUT', `/api/reports/${id}/files/${fileId}`, {
      query: { name: options.name ?? 'evidence.txt', revision: options.revision },
      rawBody: options.data ?? 'proof of concept output\n',
      contentType: options.contentType ?? 'text/plain',
    });
  }

  download(id: string, fileId: string) {
    return this.api<Buffer>('GET', `/api/reports/${id}/files/${fileId}`);
  }

  removeFile(id: string, fileId: string, revision: number) {
    return this.api<Report>('DELETE', `/api/reports/${id}/files/${fileId}`, {
      query: { revision },
    });
  }

  messages(id: string) {
    return this.api<MessageList>('GET', `/api/reports/${id}/messages`);
  }

  post(id: string, body: { body?: string; files?: string[] }) {
    return this.api<Report>('POST', `/api/reports/${id}/messages`, { body });
  }

  keys() {
    return this.api<ApiKeyList>('GET', '/api/keys');
  }

  /** `POST /api/keys` with `body` as sent (a KeyInput, or something the route must refuse). */
  createKey(body: unknown) {
    return this.api<NewApiKey>('POST', '/api/keys', { body });
  }

  /** Creates a draft and returns it (fails the test unless 200). */
  async draft(programId: string, overrides: Partial<ReportInput> = {}, id = uuid()) {
    return ok(await this.save(id, draftInput(programId, overrides)));
  }

  /** Creates a draft, submits it and returns the submitted report. */
  async submitted(programId: string, overrides: Partial<ReportInput> = {}) {
    const draft = await this.draft(programId, overrides);
    return ok(await this.submit(draft.id, draft.revision));
  }

  /**
   * Starts an upload of `bytes` that stops halfway until the test finishes it: the file is
   * uploading meanwhile.
   */
  startSlowUpload(report: Report, fileId: string, bytes: Uint8Array, name = 'slow.bin') {
    return this.sb.slowUpload(`/api/reports/${report.id}/files/${fileId}`, {
      token: this.token,
      query: { name, revision: report.revision },
      bytes,
    });
  }

  /** Uploads a file and returns the report (fails the test unless 200). */
  async attach(report: Report, fileId = uuid(), data = 'evidence bytes\n', name = 'poc.txt') {
    return ok(await this.upload(report.id, fileId, { revision: report.revision, data, name }));
  }
}

export interface Fresh {
  account: WorldAccount;
  /** Write key. */
  w: Researcher;
  /** Read key. */
  r: Researcher;
  /** Website sign-in. */
  session: Researcher;
}

/** A new account (verified, payments ready unless told otherwise) with its three tokens. */
export async function freshAccount(
  sb: SandboxClient,
  options: { email_verified?: boolean; payments_status?: string } = {},
): Promise<Fresh> {
  const account = await sb.newAccount({
    email_verified: options.email_verified ?? true,
    payments_status: options.payments_status ?? 'ready',
  });
  return {
    account,
    w: new Researcher(sb, writeKey(account)),
    r: new Researcher(sb, readKey(account)),
    session: new Researcher(sb, account.session_token),
  };
}

/**
 * A fresh researcher (see freshAccount) and a draft of the fixture's open program, as the write
 * key created it: where most report tests start.
 */
export async function freshDraft(
  fx: SandboxFixture,
  overrides: Partial<ReportInput> = {},
): Promise<{ me: Fresh; draft: Report }> {
  const me = await freshAccount(fx.sb);
  return { me, draft: await me.w.draft(fx.open, overrides) };
}

/** A fresh draft (see freshDraft) with one file attached: `withFile` is the draft after it. */
export async function freshDraftWithFile(fx: SandboxFixture) {
  const { me, draft } = await freshDraft(fx);
  const fileId = uuid();
  return { me, draft, fileId, withFile: await me.w.attach(draft, fileId) };
}

/** What every conformance file starts from: its own sandbox and the seeded world. */
export interface SandboxFixture {
  sb: SandboxClient;
  world: World;
  programs: ReturnType<typeof pickPrograms>;
  /** The id of an open program that accepts reports. */
  open: string;
}

/**
 * One sandbox per test file, started before its tests and closed after them. The fields are
 * filled in `beforeAll`, so read them inside tests and hooks only.
 */
export function useSandbox(options: SandboxOptions = {}): SandboxFixture {
  const fixture = {} as SandboxFixture;
  beforeAll(async () => {
    fixture.sb = await openSandbox(options);
    fixture.world = await fixture.sb.world();
    fixture.programs = pickPrograms(fixture.world);
    fixture.open = fixture.programs.open.id;
  });
  afterAll(async () => {
    await fixture.sb?.close();
  });
  return fixture;
}
