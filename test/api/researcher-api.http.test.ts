import { createHook } from 'node:async_hooks';
import { getEventListeners } from 'node:events';
import { readFile, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  ManualClock,
  RequestBudget,
  ResearcherApi,
  type ResearcherApiOptions,
  type RetryNotice,
} from '../../src/engine/api';
import { keyOf, SandboxHandle, type WorldAccount } from './support/sandbox';
import { completeDraft, newId } from './support/reports';

// Every test here talks to the real sandbox over HTTP; each uses its own fresh account.
let sandbox: SandboxHandle;
let workDir: string;

beforeAll(async () => {
  sandbox = await SandboxHandle.start();
  workDir = await mkdtemp(join(tmpdir(), 'bounty-desk-api-'));
});
afterAll(async () => {
  await sandbox?.close();
  await rm(workDir, { recursive: true, force: true });
});
afterEach(async () => {
  await sandbox.clearFaults();
});

function apiFor(
  account: WorldAccount,
  scope: 'read' | 'write' = 'write',
  options: Partial<ResearcherApiOptions> = {},
) {
  return new ResearcherApi({ serverUrl: sandbox.url, apiKey: keyOf(account, scope), ...options });
}

/** A new account's client, and a report it saved and submitted as the outbox sends them. */
async function submittedReport(): Promise<{ api: ResearcherApi; id: string }> {
  const api = apiFor(await sandbox.newAccount());
  const id = newId();
  const draft = await api.saveReport(id, completeDraft(await sandbox.openProgramId()), {
    priority: 'outbox',
  });
  await api.submitReport(id, draft.revision, { priority: 'outbox' });
  return { api, id };
}

/** Resolves with the first retry notice, so a test can act while the call waits on the test clock. */
function firstRetry(): { onRetry: (notice: RetryNotice) => void; next: Promise<RetryNotice> } {
  let resolve: (notice: RetryNotice) => void = () => undefined;
  const next = new Promise<RetryNotice>((r) => (resolve = r));
  return { onRetry: (notice) => resolve(notice), next };
}

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('typed calls against the sandbox', () => {
  it('reads the account, programs and payments status as typed data', async () => {
    const account = await sandbox.newAccount();
    const api = apiFor(account);
    const me = await api.getMe({ priority: 'user' });
    expect(me).toMatchObject({
      uid: account.uid,
      email_verified: true,
      payments: { status: 'ready' },
    });

    const page = await api.listPrograms({ intake: ['open'], limit: 5 }, { priority: 'prefetch' });
    expect(page.programs.length).toBeGreaterThan(0);
    expect(page.programs.every((p) => p.intake === 'open')).toBe(true);
    const first = page.programs[0];
    const program = await api.getProgram(first?.id ?? '', { priority: 'user' });
    expect(program).toMatchObject({ id: first?.id, name: first?.name });
    expect(typeof program.scope).toBe('string');

    expect(await api.getPaymentsStatus({ priority: 'user' })).toMatchObject({
      status: 'ready',
      ready: true,
    });
  });

  it('lists programs without a key on the public routes', async () => {
    const api = new ResearcherApi({ serverUrl: sandbox.url, apiKey: null });
    const page = await api.listPrograms({ asset: ['web', 'api'] }, { priority: 'user' });
    expect(page.programs.every((p) => p.asset_types.some((t) => t === 'web' || t === 'api'))).toBe(
      true,
    );
  });

  it('creates, saves, submits and withdraws a report, and lists it', async () => {
    const account = await sandbox.newAccount();
    const api = apiFor(account);
    const programId = await sandbox.openProgramId();
    const id = newId();
    const created = await api.saveReport(id, completeDraft(programId, 0), { priority: 'outbox' });
    expect(created).toMatchObject({ id, status: 'draft', program_id: programId });
    const saved = await api.saveReport(
      id,
      { ...completeDraft(programId, created.revision), title: 'Second title' },
      { priority: 'outbox' },
    );
    expect(saved.revision).toBeGreaterThan(created.revision);
    expect((await api.getReport(id, { priority: 'user' })).title).toBe('Second title');

    const submitted = await api.submitReport(id, saved.revision, { priority: 'outbox' });
    expect(submitted.status).toBe('triaging');
    const list = await api.listReports({ limit: 10 }, { priority: 'poll' });
    expect(list.reports.map((r) => r.id)).toContain(id);

    const withdrawn = await api.withdrawReport(id, { priority: 'outbox' });
    expect(withdrawn.status).toBe('withdrawn');
    const since = await api.listReports(
      { updatedSince: submitted.updated_at ?? '' },
      { priority: 'poll' },
    );
    expect(since.reports.find((r) => r.id === id)?.status).toBe('withdrawn');
  });

  it('uploads from a file with progress, downloads to a file, deletes the file', async () => {
    const account = await sandbox.newAccount();
    const api = apiFor(account);
    const reportId = newId();
    const fileId = newId();
    const draft = await api.saveReport(reportId, completeDraft(await sandbox.openProgramId()), {
      priority: 'outbox',
    });
    const source = join(workDir, 'evidence.png');
    const bytes = Buffer.alloc(300_000, 0x5a);
    await writeFile(source, bytes);
    const progress: number[] = [];

    const uploaded = await api.uploadFile(
      reportId,
      fileId,
      {
        path: source,
        name: 'evidence.png',
        contentType: 'image/png',
        revision: draft.revision,
        onProgress: (sent) => progress.push(sent),
      },
      { priority: 'outbox' },
    );
    expect(uploaded.revision).toBeGreaterThan(draft.revision);
    expect(uploaded.attachments[fileId]).toMatchObject({
      name: 'evidence.png',
      size: bytes.length,
      content_type: 'image/png',
    });
    expect(progress.at(-1)).toBe(bytes.length);

    const target = join(workDir, 'downloaded.png');
    const download = await api.downloadFile(reportId, fileId, target, { priority: 'user' });
    expect(download.bytes).toBe(bytes.length);
    expect((await readFile(target)).equals(bytes)).toBe(true);

    const afterDelete = await api.deleteFile(reportId, fileId, uploaded.revision, {
      priority: 'outbox',
    });
    expect(afterDelete.attachments[fileId]).toBeUndefined();
  });

  it('posts a message and reads the thread', async () => {
    const { api, id } = await submittedReport();
    await api.postMessage(
      id,
      { body: 'A second proof of concept.', files: [] },
      { priority: 'outbox' },
    );
    const thread = await api.listMessages(id, { priority: 'user' });
    expect(thread.messages.at(-1)).toMatchObject({
      author: 'researcher',
      body: 'A second proof of concept.',
    });
  });

  it('asks for a verification e-mail', async () => {
    const account = await sandbox.newAccount({ email_verified: false });
    const result = await apiFor(account).sendVerificationEmail({ priority: 'user' });
    expect(result.already_verified ?? false).toBe(false);
    const verified = await sandbox.newAccount();
    expect(
      (await apiFor(verified).sendVerificationEmail({ priority: 'user' })).already_verified,
    ).toBe(true);
  });
});

describe('errors as one typed value', () => {
  it('gives code, request id and the stored report on a revision conflict, without resending', async () => {
    const account = await sandbox.newAccount();
    const api = apiFor(account);
    const id = newId();
    const programId = await sandbox.openProgramId();
    const created = await api.saveReport(id, completeDraft(programId), { priority: 'outbox' });
    await api.saveReport(
      id,
      { ...completeDraft(programId, created.revision), title: 'Saved elsewhere' },
      { priority: 'outbox' },
    );
    const before = api.stats.snapshot().requests;

    const error = await caught(
      api.saveReport(id, completeDraft(programId, created.revision), { priority: 'outbox' }),
    );
    expect(error).toMatchObject({ kind: 'http', status: 409, code: 'revision_conflict' });
    expect(error.requestId).toMatch(/\S+/);
    expect(error.current).toMatchObject({ id, title: 'Saved elsewhere' });
    expect(error.current?.revision).toBeGreaterThan(created.revision);
    expect(api.stats.snapshot().requests).toBe(before + 1);
  });

  it("answers 404 not_found for a report that is not the caller's", async () => {
    const error = await caught(
      apiFor(await sandbox.newAccount()).getReport(newId(), { priority: 'user' }),
    );
    expect(error).toMatchObject({ status: 404, code: 'not_found', kind: 'http' });
  });

  it("does not resend a read key's 403 read_only_key, and never shows the key", async () => {
    const account = await sandbox.newAccount();
    const api = apiFor(account, 'read');
    const error = await caught(
      api.saveReport(newId(), completeDraft(await sandbox.openProgramId()), { priority: 'user' }),
    );
    expect(error).toMatchObject({ status: 403, code: 'read_only_key' });
    expect(api.stats.snapshot()).toMatchObject({ requests: 1, byStatus: { 403: 1 } });
    expect(`${error.message} ${JSON.stringify(error)} ${String(api)}`).not.toContain(
      keyOf(account, 'read'),
    );
  });

  it('answers 401 unauthenticated for an unknown key', async () => {
    const api = new ResearcherApi({ serverUrl: sandbox.url, apiKey: `sbx_${'x'.repeat(43)}` });
    expect(await caught(api.getMe({ priority: 'user' }))).toMatchObject({
      status: 401,
      code: 'unauthenticated',
    });
  });
});

describe('retry rules over HTTP', () => {
  it('waits out a 503 with Retry-After and succeeds once the fault is gone', async () => {
    const clock = new ManualClock();
    const retry = firstRetry();
    const api = apiFor(await sandbox.newAccount(), 'write', { clock, onRetry: retry.onRetry });
    await sandbox.faults({ rate: 1, statuses: [503], seed: 7 });

    const call = api.getMe({ priority: 'user' });
    const notice = await retry.next;
    expect(notice.error).toMatchObject({ status: 503, kind: 'http' });
    expect(notice.delayMs).toBe(notice.error.retryAfterMs);
    await sandbox.clearFaults();
    await clock.advance(notice.delayMs);
    await expect(call).resolves.toMatchObject({ email_verified: true });
    expect(api.stats.snapshot().byStatus).toEqual({ 200: 1, 503: 1 });
  });

  it('goes offline on a dropped connection and online again with the next answer', async () => {
    const clock = new ManualClock();
    const retry = firstRetry();
    const api = apiFor(await sandbox.newAccount(), 'write', { clock, onRetry: retry.onRetry });
    const events: string[] = [];
    api.connectivity.on('online', () => events.push('online'));
    api.connectivity.on('offline', (error) => events.push(`offline:${error.code}`));
    await sandbox.faults({ rate: 1, statuses: [], reset_connection: true, seed: 3 });

    const call = api.getMe({ priority: 'user' });
    const notice = await retry.next;
    expect(notice.error.kind).toBe('network');
    expect(api.connectivity.state).toBe('offline');
    await sandbox.clearFaults();
    await clock.advance(notice.delayMs);
    await call;
    expect(events).toEqual(['offline:network_error', 'online']);
  });

  it('reports a dropped message post as a network failure instead of sending it twice', async () => {
    const { api, id } = await submittedReport();
    const before = api.stats.snapshot().requests;
    await sandbox.faults({ rate: 1, statuses: [], reset_connection: true, seed: 5 });
    const error = await caught(
      api.postMessage(id, { body: 'only once', files: [] }, { priority: 'outbox' }),
    );
    expect(error).toMatchObject({ kind: 'network', code: 'network_error', status: 0 });
    expect(api.stats.snapshot().requests).toBe(before + 1);
  });
});

describe('timeouts over HTTP', () => {
  it('reports a server slower than the timeout as kind timeout', async () => {
    const api = apiFor(await sandbox.newAccount(), 'write', { timeouts: { jsonMs: 200 } });
    await sandbox.faults({ rate: 1, latency_ms: 2_000, seed: 1 });
    const error = await caught(api.getMe({ priority: 'user', idempotent: false }));
    expect(error).toMatchObject({ kind: 'timeout', code: 'timeout', status: 0 });
    expect(api.connectivity.state).toBe('offline');
  });
});

describe("a request's signal", () => {
  it("answered requests leave no listener on the caller's signal", async () => {
    const api = apiFor(await sandbox.newAccount());
    const caller = new AbortController();
    for (let i = 0; i < 20; i++) await api.getMe({ priority: 'user', signal: caller.signal });
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it('answered requests leave no timeout timer behind', async () => {
    // A timeout no other timer of the process has: the attempts' own timers are told apart by it.
    const jsonMs = 123_457;
    const api = apiFor(await sandbox.newAccount(), 'write', { timeouts: { jsonMs } });
    const made = new Set<number>();
    const hook = createHook({
      init(id, type, _trigger, resource) {
        if (type === 'Timeout' && (resource as { _idleTimeout?: number })._idleTimeout === jsonMs)
          made.add(id);
      },
      destroy: (id) => void made.delete(id),
    }).enable();
    let created = 0;
    try {
      for (let i = 0; i < 20; i++) {
        await api.getMe({ priority: 'user' });
        created = Math.max(created, made.size);
      }
      // Destroy hooks run after the turn that cleared the timer.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      hook.disable();
    }
    expect(created).toBeGreaterThan(0);
    expect(made.size).toBe(0);
  });

  it("the caller's abort still stops a request under way, as aborted, not timed out", async () => {
    const api = apiFor(await sandbox.newAccount(), 'write', { timeouts: { jsonMs: 5_000 } });
    await sandbox.faults({ rate: 1, latency_ms: 2_000, seed: 1 });
    const caller = new AbortController();
    const call = caught(api.getMe({ priority: 'user', signal: caller.signal }));
    setTimeout(() => caller.abort(), 100);
    const error = await call;
    expect(error.kind).not.toBe('timeout');
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });
});

describe('the shared budget against spec rate limits', () => {
  it('sends 150 requests across two minutes with zero 429s', async () => {
    const clock = new ManualClock();
    const api = apiFor(await sandbox.newAccount(), 'write', { clock });
    const calls = Array.from({ length: 150 }, () => api.getMe({ priority: 'user' }));
    await until(
      () => api.stats.snapshot().requests === 120 && api.budget.snapshot().inFlight === 0,
    );
    expect(api.budget.snapshot().waiting.user).toBe(30);

    await sandbox.advanceClock(60);
    await clock.advance(60_000);
    await Promise.all(calls);
    expect(api.stats.snapshot()).toMatchObject({
      requests: 150,
      rateLimited: 0,
      byStatus: { 200: 150 },
    });
  });

  it('would have met 429s without the budget (the check above can fail)', async () => {
    const clock = new ManualClock();
    const unlimited = apiFor(await sandbox.newAccount(), 'write', {
      clock,
      budget: new RequestBudget({ limit: 1_000, clock }),
      retry: { rateLimitRetries: 0 },
    });
    const results = await Promise.allSettled(
      Array.from({ length: 130 }, () => unlimited.getMe({ priority: 'user' })),
    );
    expect(unlimited.stats.snapshot().rateLimited).toBe(10);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(10);
  });

  it('pauses the whole budget on a 429 and resends after Retry-After', async () => {
    const clock = new ManualClock();
    const notices: RetryNotice[] = [];
    const api = apiFor(await sandbox.newAccount(), 'write', {
      clock,
      // A budget that does not know the server's limit, so the server has to say it.
      budget: new RequestBudget({ limit: 1_000, clock }),
      onRetry: (notice) => notices.push(notice),
    });
    const calls = Array.from({ length: 125 }, () => api.getMe({ priority: 'poll' }));
    await until(
      () => api.stats.snapshot().requests === 125 && api.budget.snapshot().inFlight === 0,
    );
    expect(api.stats.snapshot().rateLimited).toBe(5);
    const pausedUntil = api.budget.snapshot().pausedUntil;
    expect(pausedUntil).toBeGreaterThan(clock.now());
    expect(notices.every((n) => n.error.code === 'rate_limited')).toBe(true);

    // Nothing else of the account is sent while paused, user requests included.
    let userDone = false;
    const user = api.getMe({ priority: 'user' }).then(() => (userDone = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(userDone).toBe(false);

    await sandbox.advanceClock(60);
    await clock.advance((pausedUntil ?? 0) - clock.now());
    await Promise.all([...calls, user]);
    expect(api.stats.snapshot()).toMatchObject({ requests: 131, rateLimited: 5 });
  });

  it('lets a user request overtake queued poll requests', async () => {
    const clock = new ManualClock();
    const account = await sandbox.newAccount();
    const api = apiFor(account, 'write', { clock });
    const done: string[] = [];
    const track = (label: string, call: Promise<unknown>) => call.then(() => done.push(label));

    // Polling may fill 100 of the 120 slots; 5 more polls queue.
    const polls = Array.from({ length: 105 }, (_, i) =>
      track(`poll-${i}`, api.listReports({ limit: 1 }, { priority: 'poll' })),
    );
    await until(() => done.length === 100);
    expect(api.budget.snapshot().waiting.poll).toBe(5);

    const user = track('user', api.getMe({ priority: 'user' }));
    await user;
    expect(done.at(-1)).toBe('user');
    expect(api.budget.snapshot().waiting.poll).toBe(5);

    await sandbox.advanceClock(60);
    await clock.advance(60_000);
    await Promise.all(polls);
    expect(done.indexOf('user')).toBeLessThan(done.indexOf('poll-100'));
    expect(api.stats.snapshot().rateLimited).toBe(0);
  });
});

/** Waits (in real time) for requests in flight to the sandbox to finish. */
async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
