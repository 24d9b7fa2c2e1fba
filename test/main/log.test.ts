import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  renderBundle,
  sealBundle,
  statusForDiagnostics,
} from '../../src/engine/diagnostics/bundle';
import { checkForCredentials } from '../../src/engine/diagnostics/check';
import { removeCredentials } from '../../src/engine/diagnostics/credentials';
import { summarizeOutbox } from '../../src/engine/diagnostics/outbox-summary';
import { EngineEvents } from '../../src/engine/events/engine-events';
import { logEngineEvents, type OutboxEntryState } from '../../src/engine/log/engine-log';
import { createFileLogger, formatLine } from '../../src/engine/log/logger';
import type { StatusView } from '../../src/shared/bridge/views';

const KEY = `sbx_${'A1b2C3d4E5'.repeat(4)}xyz`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bounty-desk-log-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The file's lines, with electron-log's column alignment (`[info]  `) made one space. */
const lines = async (file: string): Promise<string[]> =>
  (await readFile(file, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => line.replace(/\]\s+/g, '] '));

describe('the diagnostics log file', () => {
  it('writes one line per event: time, level, scope, event, fields; readable by the user only', async () => {
    const file = join(dir, 'logs', 'main.log');
    const log = createFileLogger({ file });
    log.info('sync', 'finished', { ok: true, changed: 3 });
    log.warn('links', 'refused', { source: 'open-url', reason: 'unknown-shape' });
    const written = await lines(file);
    expect(written).toHaveLength(2);
    expect(written[0]).toMatch(
      /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\] \[info\] \(sync\) finished ok=true changed=3$/,
    );
    expect(written[1]).toContain('[warn] (links) refused source=open-url reason=unknown-shape');
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('no field can carry a key or forge a line', () => {
    const line = formatLine(
      'call-failed',
      {
        message: `bad key ${KEY}\n[2025-01-01 00:00:00.000] [info] (app) forged`,
        known: 'the secret is hunter2hunter2',
      },
      ['hunter2hunter2'],
    );
    expect(line).not.toContain(KEY);
    expect(line).not.toContain('hunter2hunter2');
    expect(line).not.toContain('\n');
    expect(line).toContain('[redacted]');
  });

  it('rotates past its size: x.log → x.1.log → x.2.log, keeping `keep` old files', async () => {
    const file = join(dir, 'engine.log');
    const log = createFileLogger({ file, maxBytes: 2_000, keep: 2 });
    for (let i = 0; i < 200; i++) log.info('sync', 'finished', { ok: true, n: i });
    const names = (await readdir(dir)).sort();
    expect(names).toEqual(['engine.1.log', 'engine.2.log', 'engine.log']);
    for (const name of names) expect((await stat(join(dir, name))).size).toBeLessThan(2_200);
    expect((await lines(file)).at(-1)).toContain('n=199');
  });
});

describe('engine events in the log', () => {
  function status(over: Partial<StatusView> = {}): StatusView {
    return {
      connectivity: 'online',
      syncing: false,
      lastSyncAt: null,
      unsent: 0,
      held: 0,
      needsAction: 0,
      storage: { diskFull: false, recovered: null, newerData: null },
      unread: 0,
      inbox: [],
      budget: { used: 1, limit: 60 },
      lastError: null,
      ...over,
    };
  }

  it('logs sync, triage and outbox changes by id and count, never a title', async () => {
    const file = join(dir, 'engine.log');
    const events = new EngineEvents();
    let outbox: OutboxEntryState[] = [];
    const { off } = logEngineEvents({
      events,
      log: createFileLogger({ file }),
      outbox: () => outbox,
    });
    const report = '3f1c2a9e-8d4b-4c1e-9f2a-7b6c5d4e3f21';
    const entry = { id: 7, reportId: report, kind: 'submit', attempts: 0, lastError: null };

    events.emit('status', status({ syncing: true }));
    events.emit('report-changed', { reportId: report });
    events.emit('report-changed', { reportId: report });
    outbox = [{ ...entry, state: 'pending' }];
    events.emit('status', status({ unsent: 1 }));
    outbox = [
      {
        ...entry,
        state: 'pending',
        attempts: 1,
        lastError: { code: 'rate_limited', status: 429, detail: 'Slow down' },
      },
    ];
    events.emit('status', status({ unsent: 1 }));
    outbox = [
      { ...entry, state: 'parked', attempts: 2, lastError: { code: 'field_invalid', status: 422 } },
    ];
    events.emit('status', status({ unsent: 1, needsAction: 1 }));
    outbox = [];
    events.emit('status', status());
    events.emit('needs-info', { reportId: report, title: 'Stored XSS in the billing page' });
    events.emit('decision', {
      reportId: report,
      title: 'Stored XSS in the billing page',
      outcome: 'accepted',
    });
    events.emit('connectivity', { state: 'offline' });
    events.emit('upload-progress', { reportId: report, fileId: 'f1', sentBytes: 10, size: 20 });
    events.emit('upload-progress', { reportId: report, fileId: 'f1', sentBytes: 20, size: 20 });
    off();
    events.emit('needs-info', { reportId: report, title: 'after' });

    const text = (await lines(file)).map((l) => l.replace(/^\[[^\]]+\] /, '')).join('\n');
    expect(text).toBe(
      [
        '[info] (sync) started unsent=0',
        '[info] (outbox) queued entry=7 kind=submit report=' + report + ' state=pending attempts=0',
        '[info] (sync) finished ok=true changed=2 unsent=1 parked=0 budget=1/60',
        '[info] (outbox) retry entry=7 kind=submit report=' +
          report +
          ' attempts=1 code=rate_limited status=429',
        '[warn] (outbox) parked entry=7 kind=submit report=' +
          report +
          ' attempts=2 code=field_invalid status=422',
        '[info] (outbox) sent entry=7 kind=submit report=' + report,
        '[info] (triage) needs-info report=' + report,
        '[info] (triage) decision report=' + report + ' outcome=accepted',
        '[warn] (sync) connectivity state=offline',
        '[info] (outbox) upload-started report=' + report + ' file=f1 size=20',
        '[info] (outbox) upload-sent report=' + report + ' file=f1 size=20',
      ].join('\n'),
    );
    expect(text).not.toContain('XSS');
    expect(text).not.toContain('Slow down');
  });
});

describe('the diagnostics bundle', () => {
  it('removes the signed-in key exactly and every credential shape, and says what it removed', () => {
    const text = [
      `own key: ${KEY}`,
      'Authorization: Bearer abcdefghijklmnop.qrstuv',
      'cookie: session=0123456789abcdef; theme=dark',
      'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJl',
      `another key: live_${'Z'.repeat(43)}`,
      'a plain line with report 3f1c2a9e-8d4b-4c1e-9f2a-7b6c5d4e3f21',
    ].join('\n');
    const checked = removeCredentials(text, [KEY]);
    expect(checked.text).not.toContain(KEY);
    expect(checked.text).not.toContain('abcdefghijklmnop');
    expect(checked.text).not.toContain('0123456789abcdef');
    expect(checked.text).not.toContain('eyJzdWIiOiIxMjM0NTY3ODkwIn0');
    expect(checked.text).not.toContain('Z'.repeat(43));
    expect(checked.text).toContain('own key: [REDACTED:own-api-key]');
    expect(checked.text).toContain('a plain line with report 3f1c2a9e-8d4b-4c1e-9f2a-7b6c5d4e3f21');
    expect(checked.removed).toEqual([
      { kind: 'api-key', count: 1 },
      { kind: 'authorization', count: 1 },
      { kind: 'cookie', count: 1 },
      { kind: 'jwt', count: 1 },
      { kind: 'own-api-key', count: 1 },
    ]);
    const sealed = sealBundle('Bounty Desk diagnostics\nrest', checked.removed);
    expect(sealed.split('\n').slice(0, 2)).toEqual([
      'Bounty Desk diagnostics',
      'Credential check: removed 5 (api-key ×1, authorization ×1, cookie ×1, jwt ×1, own-api-key ×1).',
    ]);
    expect(sealBundle('T\nrest', [])).toBe('T\nCredential check: nothing found.\nrest');
  });

  it('also removes what the evidence scanner knows: vendor keys, private keys, passwords in URLs', async () => {
    const aws = 'AKIA' + 'QYLPMN5HHHFPZAM2';
    const text = [
      `own ${KEY}`,
      `aws ${aws}`,
      'db postgres://app:s3cretPassw0rd@db.internal:5432/app',
      'report 3f1c2a9e-8d4b-4c1e-9f2a-7b6c5d4e3f21 synced',
    ].join('\n');
    const checked = await checkForCredentials(text, [KEY]);
    expect(checked.text).not.toContain(KEY);
    expect(checked.text).not.toContain(aws);
    expect(checked.text).not.toContain('s3cretPassw0rd');
    expect(checked.text).toContain('report 3f1c2a9e-8d4b-4c1e-9f2a-7b6c5d4e3f21 synced');
    expect(checked.removed.map((r) => r.kind)).toEqual(
      expect.arrayContaining(['own-api-key', 'aws-access-key']),
    );
  });

  it('holds versions, settings, status, outbox counts and every log, in sections', () => {
    const outbox = summarizeOutbox([
      {
        kind: 'save_report',
        state: 'pending',
        attempts: 0,
        createdAt: '2025-01-02T00:00:00Z',
        lastError: null,
      },
      {
        kind: 'submit',
        state: 'parked',
        attempts: 3,
        createdAt: '2025-01-01T00:00:00Z',
        lastError: { code: 'payments_not_ready', status: 409 },
      },
      {
        kind: 'submit',
        state: 'done',
        attempts: 1,
        createdAt: '2024-12-01T00:00:00Z',
        lastError: null,
      },
    ]);
    expect(outbox).toEqual({
      open: 2,
      byKind: { save_report: { pending: 1 }, submit: { parked: 1 } },
      oldest: '2025-01-01T00:00:00Z',
      maxAttempts: 3,
      errors: { payments_not_ready: 1 },
    });
    const text = renderBundle({
      createdAt: '2025-01-03T00:00:00.000Z',
      versions: { 'Bounty Desk': '0.1.0', electron: undefined, node: '20.19.0' },
      settings: { app: { sandbox: { port: 4010 } } },
      status: { unsent: 2 },
      outbox,
      updates: { phase: 'disabled' },
      logs: [
        { name: 'engine.log', text: 'line a\n' },
        { name: 'main.log', text: '' },
      ],
    });
    expect(text).toMatch(/^Bounty Desk diagnostics\nCreated: 2025-01-03T00:00:00.000Z\n/);
    expect(text).toContain('===== Versions =====\nBounty Desk: 0.1.0\nnode: 20.19.0\n');
    expect(text).toContain('"port": 4010');
    expect(text).toContain('===== Outbox (counts only) =====');
    expect(text).toContain('===== Log engine.log =====\nline a\n');
    expect(text).toContain('===== Log main.log =====\n(empty)\n');
  });

  it('shows the sync status as states and counts, never a report title or an error’s words', () => {
    const shown = statusForDiagnostics({
      connectivity: 'online',
      syncing: false,
      lastSyncAt: '2025-01-03T00:00:00Z',
      unsent: 1,
      held: 0,
      needsAction: 1,
      unread: 2,
      inbox: [
        {
          reportId: 'r1',
          title: 'Stored XSS in the admin panel',
          unread: 2,
          needsInfo: true,
          updatedAt: null,
        },
      ],
      budget: { used: 3, limit: 120 },
      storage: { diskFull: false, recovered: null, newerData: null },
      lastError: {
        status: 500,
        code: 'internal_error',
        title: 'Server error',
        advice: 'The server said: token=abc',
        requestId: 'req-1',
      },
    });
    const text = JSON.stringify(shown);
    expect(text).not.toContain('Stored XSS');
    expect(text).not.toContain('token=abc');
    expect(shown).toMatchObject({ inbox: 1, unread: 2, lastError: { code: 'internal_error' } });
  });
});
