import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from '../../src/sandbox';
import { fetchWorldAccounts } from '../../src/main/sandbox-account';
import { websiteUrl } from '../../src/main/website';
import {
  BRIDGE_CALLS,
  callChannel,
  type BridgeCallName,
  type BridgeResult,
} from '../../src/shared/bridge/contract';
import type { AccountView, DraftView, ReportDetailView } from '../../src/shared/bridge/views';
import { COMPLETE_DESCRIPTION as DESCRIPTION } from '../support/fixtures';
import { until } from '../renderer/support/ui';
import { buildApp } from './build';
import { AppHost } from './host';

/**
 * main's IPC handlers as built (`out/main/index.js` under the Electron stand-in), called the way
 * the preload calls them, from frames main must trust or refuse. No page: each call is what a
 * compromised page could send.
 */
let host: AppHost;
let rendererUrl: string;

const frame = (url = rendererUrl, parent = false) => ({ url, parent });

async function invokeFrom(
  sender: { url: string; parent: boolean } | null,
  name: BridgeCallName,
  ...args: unknown[]
): Promise<BridgeResult> {
  return (await host.start().invoke(1, callChannel(name), args, sender)) as BridgeResult;
}

const invoke = (name: BridgeCallName, ...args: unknown[]) => invokeFrom(frame(), name, ...args);

async function value<T>(name: BridgeCallName, ...args: unknown[]): Promise<T> {
  const result = await invoke(name, ...args);
  if (!result.ok) throw new Error(`${name} failed: ${result.error.name}: ${result.error.message}`);
  return result.value as T;
}

const opened = () =>
  host
    .start()
    .shell.filter((s) => s.call === 'openExternal')
    .map((s) => s.target);

beforeAll(async () => {
  await buildApp();
  host = await AppHost.open();
  rendererUrl = host.rendererUrl;
  host.start();
});

afterAll(async () => {
  await host?.close();
});

describe('sender check', () => {
  it.each([
    ['a subframe of the app page', () => frame(rendererUrl, true)],
    ['another local file', () => frame('file:///tmp/evil.html')],
    ['a web page', () => frame('https://evil.example/index.html')],
    ['no frame at all', () => null],
  ])('refuses %s before anything reaches the engine', async (_label, sender) => {
    const result = await invokeFrom(sender(), 'connectSandbox');
    expect(result).toEqual({
      ok: false,
      error: {
        name: 'BridgeInputError',
        code: 'bad_call',
        message: 'This call is only accepted from the app window.',
      },
    });
    expect(host.start().running('sandbox.js')).toEqual([]);
    expect(await value('getAccount')).toBeNull();
  });

  it('answers every call of the contract (none is missing a handler)', async () => {
    for (const name of BRIDGE_CALLS) {
      const result = await invokeFrom(frame('https://evil.example/'), name);
      expect(result, name).toMatchObject({ ok: false, error: { name: 'BridgeInputError' } });
    }
  });
});

describe('argument validation', () => {
  const report = '3f1c2a9e-8d4b-4c1e-9f2a-7b6c5d4e3f21';
  it.each<[string, BridgeCallName, unknown[], string]>([
    ['a non-UUID report id', 'getReport', ['../../etc/passwd'], 'must be a UUID'],
    ['a number as report id', 'getReport', [42], 'must be a UUID'],
    ['a missing argument', 'getReport', [], 'must be a UUID'],
    ['an extra argument', 'getStatus', [1], 'expects 0 argument(s)'],
    ['a missing API key', 'connect', [{ serverUrl: 'http://x' }], 'apiKey: is missing'],
    [
      'an unknown key',
      'connect',
      [{ serverUrl: 'http://x', apiKey: 'k', sandbox: true }],
      'sandbox: is not expected',
    ],
    [
      'an over-long key',
      'connect',
      [{ serverUrl: 'http://x', apiKey: 'a'.repeat(300) }],
      'apiKey: must be at most 256 characters',
    ],
    [
      'an over-long title',
      'saveDraft',
      [report, { title: 'x'.repeat(10_000), asset: '', description: '', cvss_vector: '' }],
      'title: must be at most 720 characters',
    ],
    [
      'a path where a file token belongs',
      'attachFiles',
      [report, [{ file: '/etc/passwd' }]],
      'file: must be a UUID',
    ],
    [
      'a path in place of a token object',
      'attachFiles',
      [report, [{ path: '/etc/passwd' }]],
      '[0]: file: is missing',
    ],
    [
      'a path among the message files',
      'postMessage',
      [report, { body: 'hi', files: ['/etc/passwd'] }],
      'files: [0]: must be a UUID',
    ],
    [
      'the old filePaths field',
      'postMessage',
      [report, { body: 'hi', filePaths: ['/etc/passwd'] }],
      'files: is missing',
    ],
    ['a page size over the limit', 'listPrograms', [{ limit: 1000 }], 'limit'],
    ['an unknown status', 'listReports', [{ status: ['nope'] }], 'status: [0]: must be one of'],
    ['a bad program id', 'createDraft', ['Bad Program!'], 'wrong format'],
    ['an unknown website page', 'openWebsite', ['admin'], 'must be one of'],
    ['a negative outbox entry', 'retryEntry', [-1], 'whole number'],
    [
      'a custom choice that is not text',
      'resolveConflicts',
      [report, { title: { custom: 5 } }],
      'title:',
    ],
    ['a URL that is not a string', 'openExternal', [{ href: 'https://x' }], 'must be a string'],
    ['an array posing as an object', 'listReports', [[]], 'must be an object'],
    // Keys inherited from Object.prototype are not declared fields.
    [
      'an inherited key name',
      'listReports',
      [{ constructor: 'x' }],
      'constructor: is not expected',
    ],
    [
      'toString as a field',
      'resolveConflicts',
      [report, { toString: 'ours' }],
      'toString: is not expected',
    ],
    [
      '__defineGetter__ as a field',
      'connect',
      [{ serverUrl: 'http://x', apiKey: 'k', __defineGetter__: 1 }],
      '__defineGetter__: is not expected',
    ],
  ])('refuses %s', async (_label, name, args, expected) => {
    const result = await invoke(name, ...args);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.name).toBe('BridgeInputError');
    expect(result.error.message).toContain(expected);
    expect(result.error).not.toHaveProperty('stack');
  });

  it('names the field at fault so the UI can show it next to that field', async () => {
    const result = await invoke('connect', { serverUrl: 5, apiKey: 'x' });
    expect(result).toMatchObject({ ok: false, error: { field: 'serverUrl' } });
  });
});

describe('calls through main to the engine process', () => {
  let account: AccountView;
  let draft: DraftView;

  it('connectSandbox starts the embedded sandbox in its own process and signs in as the demo user', async () => {
    account = await value<AccountView>('connectSandbox');
    expect(account).toMatchObject({ sandbox: true, scope: 'write', me: { uid: 'dana' } });
    expect(account.me?.email_verified).toBe(true);
    expect(account.serverUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(host.start().running('sandbox.js')).toHaveLength(1);
    expect(await value<AccountView>('getAccount')).toMatchObject({
      serverUrl: account.serverUrl,
      sandbox: true,
    });
    // main stores the choice, never the URL or the key.
    const choice = await readFile(join(host.dataDir, 'userData', 'shell.json'), 'utf8');
    expect(JSON.parse(choice)).toEqual({
      sandbox: { port: Number(new URL(account.serverUrl).port) },
    });
  });

  it('lists programs, creates and saves a draft, attaches evidence picked in main’s dialog', async () => {
    await value('syncNow');
    const page = await value<{ programs: { id: string }[] }>('listPrograms', { limit: 50 });
    expect(page.programs.map((p) => p.id)).toContain('sandbox-playground');
    draft = await value<DraftView>('createDraft', 'sandbox-playground');
    expect(draft.reportId).toMatch(/^[0-9a-f-]{36}$/);
    const saved = await value<DraftView>('saveDraft', draft.reportId, {
      title: 'Reflected XSS in search',
      asset: 'https://playground.sandbox.test/search',
      description: DESCRIPTION,
      cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N',
    });
    expect(saved.content.title).toBe('Reflected XSS in search');
    const evidence = await host.file('request.txt', 'GET /search?q=<script>alert(1)</script>\n');
    host.pickInDialog([evidence]);
    const picked = await value<{ token: string; name: string }[]>('pickFiles');
    expect(picked.map((p) => p.name)).toEqual(['request.txt']);
    const attached = await value<{ name: string }[]>('attachFiles', draft.reportId, [
      { file: picked[0]?.token },
    ]);
    expect(attached.map((e) => e.name)).toEqual(['request.txt']);
    const detail = await value<ReportDetailView>('getReport', draft.reportId);
    expect(detail.draft?.content.title).toBe('Reflected XSS in search');
    const checklist = await value<{ items: unknown[] }>('getChecklist', draft.reportId);
    expect(checklist.items.length).toBeGreaterThan(0);
    // An unknown but well-formed id reaches the engine, which asks the server for it at once
    // (on demand) and answers null once the server has said it has no such report.
    const unknown = '3f1c2a9e-8d4b-4c1e-9f2a-7b6c5d4e3f21';
    expect(await value('getReport', unknown)).toMatchObject({ download: { state: 'downloading' } });
    await expect.poll(() => value('getReport', unknown)).toBeNull();
  });

  it('a cancelled open dialog picks nothing', async () => {
    expect(await value('pickFiles')).toEqual([]);
  });

  it('a sign-in error crosses as plain data with its field, never the key or a stack', async () => {
    const wrongKey = `sbx_${'Q'.repeat(43)}`;
    const result = await invoke('connect', { serverUrl: account.serverUrl, apiKey: wrongKey });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({
      name: 'SignInError',
      code: 'sign_in_failed',
      field: 'apiKey',
    });
    expect(result.error.message).not.toMatch(/^apiKey:/);
    expect(JSON.stringify(result)).not.toContain('Q'.repeat(43));
    expect(result.error).not.toHaveProperty('stack');
    const malformed = await invoke('connect', {
      serverUrl: account.serverUrl,
      apiKey: 'not a key',
    });
    expect(malformed).toMatchObject({ ok: false, error: { field: 'apiKey' } });
    expect((await value<AccountView>('getAccount')).sandbox).toBe(true);
  });
});

describe('external links', () => {
  it.each([
    'javascript:alert(1)',
    'file:///etc/passwd',
    'https://u:p@example.com/',
    'smb://host/x',
  ])('openExternal refuses %s and hands nothing to the OS', async (url) => {
    const before = opened().length;
    expect(await invoke('openExternal', url)).toEqual({ ok: true, value: false });
    expect(opened().length).toBe(before);
  });

  it('openExternal opens a safe link in the OS browser', async () => {
    expect(await invoke('openExternal', 'https://example.com/policy')).toEqual({
      ok: true,
      value: true,
    });
    await until('the OS browser asked', () => opened().includes('https://example.com/policy'));
  });

  it('openWebsite for the sandbox: its account list, and a real onboarding link', async () => {
    const url = (await value<AccountView>('getAccount')).serverUrl;
    expect(await value('openWebsite', 'api-keys')).toBe(true);
    await until('the world page', () => opened().at(-1) === `${url}/__sandbox/world`);
    expect(await value('openWebsite', 'payment-onboarding')).toBe(true);
    await until('the onboarding link', () =>
      (opened().at(-1) ?? '').startsWith(`${url}/__sandbox/onboarding/`),
    );
    expect((await fetch(opened().at(-1) ?? '')).status).toBe(200);
  });

  it('openWebsite for a real server: same origin, assumed paths', () => {
    const server = 'https://bugs.example.com/api-prefix';
    expect(websiteUrl(server, 'sign-up')).toBe('https://bugs.example.com/signup');
    expect(websiteUrl(server, 'verify-email')).toBe('https://bugs.example.com/verify-email');
    expect(websiteUrl(server, 'payment-onboarding')).toBe(
      'https://bugs.example.com/settings/payments',
    );
    expect(websiteUrl(server, 'api-keys')).toBe('https://bugs.example.com/settings/api-keys');
  });
});

describe('downloads (a real server with seeded evidence)', () => {
  let other: SandboxHandle;
  let fileId: string;
  let reportId: string;

  beforeAll(async () => {
    other = await startSandbox({ port: 0, agent: 'manual', rateLimits: 'off' });
    const dana = (await fetchWorldAccounts(other.url)).find((a) => a.uid === 'dana');
    const key = dana?.keys.find((k) => k.scope === 'write')?.key ?? '';
    const account = await value<AccountView>('connect', { serverUrl: other.url, apiKey: key });
    expect(account).toMatchObject({ sandbox: false, me: { uid: 'dana' } });
    await value('syncNow');
    const list = await value<{ items: { id: string }[] }>('listReports', { limit: 100 });
    for (const item of list.items) {
      const detail = await value<ReportDetailView>('getReport', item.id);
      const ready = Object.entries(detail.report?.attachments ?? {}).find(
        ([, a]) => a.state === 'ready',
      );
      if (ready) {
        reportId = item.id;
        fileId = ready[0];
        break;
      }
    }
    expect(fileId).toBeDefined();
  });

  afterAll(async () => {
    await other?.close();
  });

  it('connecting to another server forgot the sandbox choice and stopped its process', async () => {
    await until('the sandbox process ended', () => host.start().running('sandbox.js').length === 0);
    await expect(stat(join(host.dataDir, 'userData', 'shell.json'))).rejects.toThrow();
  });

  it('asks where to save (default: the sanitized attachment name) and never opens the file', async () => {
    const target = join(host.dataDir, 'saved', 'evidence.txt');
    await mkdir(join(host.dataDir, 'saved'), { recursive: true });
    const asked = host.start().dialogs.length;
    host.saveInDialog(target);
    const result = await value<{ savedTo: string }>('downloadFile', reportId, fileId);
    expect(result.savedTo).toBe(target);
    expect((await stat(target)).size).toBeGreaterThan(0);
    const dialogs = host.start().dialogs.slice(asked);
    expect(dialogs.map((d) => d.kind)).toEqual(['save']);
    expect(dialogs[0]?.options['defaultPath']).toBe(join(host.dataDir, 'Downloads', 'request.txt'));
    expect(host.start().shell.filter((s) => s.call !== 'openExternal')).toEqual([]);
  });

  it('answers null and writes nothing when the dialog is cancelled', async () => {
    expect(await invoke('downloadFile', reportId, fileId)).toEqual({ ok: true, value: null });
  });

  it('signOut removes the account; later calls that need one fail as plain errors', async () => {
    await value('signOut');
    expect(await value('getAccount')).toBeNull();
    const result = await invoke('listReports', {});
    expect(result).toMatchObject({
      ok: false,
      error: { name: 'NotSignedInError', code: 'not_signed_in' },
    });
  });
});
