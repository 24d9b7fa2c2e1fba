import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as electron from 'electron';
import type { IpcMainInvokeEvent } from 'electron';
import { Engine } from '../../src/core/engine';
import { KeytarSecretStore } from '../../src/core/secrets';
import { startSandbox, type SandboxHandle } from '../../src/sandbox';
import { createBridgeCalls } from '../../src/main/bridge-calls';
import { forwardEvents, registerBridge, type IpcMainLike } from '../../src/main/ipc';
import { appPaths } from '../../src/main/paths';
import { fetchWorldAccounts, SandboxAccount } from '../../src/main/sandbox-account';
import { websiteUrl } from '../../src/main/website';
import {
  BRIDGE_CALLS,
  type BridgeCallName,
  type BridgeEventName,
  type BridgeResult,
} from '../../src/shared/bridge/contract';
import type { AccountView, DraftView, ReportDetailView } from '../../src/shared/bridge/views';
import type { ElectronMock } from './electron-mock';
import { COMPLETE_DESCRIPTION as DESCRIPTION } from '../support/fixtures';

// IPC handlers in front of a REAL engine (temp dir, real keychain) and a REAL sandbox. Only
// `electron` is mocked: its shell and dialog record what the handlers ask of the OS.
vi.mock('electron', async () => (await import('./electron-mock')).electronMock());
const { shell, dialog } = electron as unknown as ElectronMock;

const BUNDLE = '/opt/bounty-desk/out/main';
let tmp: string;
let engine: Engine;
let sandbox: SandboxAccount;
let handlers: Map<string, (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>>;
let rendererUrl: string;
const received: { event: BridgeEventName; payload: unknown }[] = [];

function frame(url = rendererUrl, parent: unknown = null): IpcMainInvokeEvent {
  return { senderFrame: { url, parent } } as unknown as IpcMainInvokeEvent;
}

async function invokeFrom(
  sender: IpcMainInvokeEvent,
  name: BridgeCallName,
  ...args: unknown[]
): Promise<BridgeResult> {
  const handler = handlers.get(`bridge:call:${name}`);
  if (!handler) throw new Error(`no handler for ${name}`);
  return (await handler(sender, ...args)) as BridgeResult;
}

const invoke = (name: BridgeCallName, ...args: unknown[]) => invokeFrom(frame(), name, ...args);

async function value<T>(name: BridgeCallName, ...args: unknown[]): Promise<T> {
  const result = await invoke(name, ...args);
  if (!result.ok) throw new Error(`${name} failed: ${result.error.name}: ${result.error.message}`);
  return result.value as T;
}

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'bounty-desk-main-'));
  const paths = appPaths(join(tmp, 'userData'), BUNDLE);
  rendererUrl = paths.rendererUrl;
  engine = new Engine({ dataDir: paths.dataDir, secrets: new KeytarSecretStore() });
  sandbox = new SandboxAccount({
    engine,
    dataDir: paths.sandboxDir,
    choiceFile: paths.choiceFile,
    start: startSandbox,
  });
  handlers = new Map();
  const ipcMain: IpcMainLike = {
    handle: (channel, listener) => handlers.set(channel, listener),
    removeHandler: (channel) => handlers.delete(channel),
  };
  registerBridge({
    ipcMain,
    rendererUrl,
    calls: createBridgeCalls({
      engine,
      sandbox,
      shell,
      dialog,
      downloadsDir: join(tmp, 'Downloads'),
    }),
  });
  forwardEvents(engine.events, (event, payload) => received.push({ event, payload }));
});

afterAll(async () => {
  await engine?.signOut().catch(() => undefined);
  await engine?.close();
  await sandbox?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

beforeEach(() => {
  shell.openExternal.mockClear();
  shell.openPath.mockClear();
  dialog.showSaveDialog.mockClear();
});

describe('sender check', () => {
  it('registers one handler per bridge call', () => {
    expect([...handlers.keys()].sort()).toEqual(BRIDGE_CALLS.map((n) => `bridge:call:${n}`).sort());
  });

  it.each([
    ['a subframe of the app page', () => frame(rendererUrl, {})],
    ['another local file', () => frame('file:///tmp/evil.html')],
    ['a web page', () => frame('https://evil.example/index.html')],
    ['no frame at all', () => ({ senderFrame: null }) as unknown as IpcMainInvokeEvent],
  ])('refuses %s before anything reaches the engine', async (_label, sender) => {
    const result = await invokeFrom(sender(), 'connectSandbox');
    expect(result).toEqual({
      ok: false,
      error: {
        name: 'BridgeInputError',
        message: 'This call is only accepted from the app window.',
      },
    });
    expect(sandbox.url).toBeNull();
    expect(await engine.getAccount()).toBeNull();
  });
});

describe('argument validation', () => {
  const report = '3f1c2a9e-8d4b-4c1e-9f2a-7b6c5d4e3f21';
  it.each<[string, BridgeCallName, unknown[], string]>([
    ['a non-UUID report id', 'getReport', ['../../etc/passwd'], 'must be a UUID'],
    ['a number as report id', 'getReport', [42], 'must be a UUID'],
    ['a missing argument', 'getReport', [], 'must be a UUID'],
    ['an extra argument', 'getStatus', [1], 'expects 0 argument(s)'],
    ['a missing API key', 'connect', [{ serverUrl: 'http://x' }], 'apiKey: must be a string'],
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
    ['a relative evidence path', 'attachFiles', [report, [{ path: 'a.txt' }]], 'absolute'],
    [
      'a missing evidence file',
      'attachFiles',
      [report, [{ path: '/nonexistent/bounty-desk/a.txt' }]],
      'does not exist',
    ],
    ['a folder as evidence', 'attachFiles', [report, [{ path: '/' }]], 'is not a file'],
    [
      'a relative message file',
      'postMessage',
      [report, { body: 'hi', filePaths: ['x.png'] }],
      'absolute',
    ],
    ['a page size over the limit', 'listPrograms', [{ limit: 1000 }], 'limit'],
    ['an unknown status', 'listReports', [{ status: ['nope'] }], 'status: [0] must be one of'],
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
  ])('refuses %s', async (_label, name, args, expected) => {
    const result = await invoke(name, ...args);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.name).toBe('BridgeInputError');
    expect(result.error.message).toContain(expected);
    expect(Object.keys(result.error).sort()).toEqual(expect.arrayContaining(['message', 'name']));
    expect(result.error).not.toHaveProperty('stack');
  });

  it('names the field at fault so the UI can show it next to that field', async () => {
    const result = await invoke('connect', { serverUrl: 5, apiKey: 'x' });
    expect(result).toMatchObject({ ok: false, error: { field: 'serverUrl' } });
  });
});

describe('calls forwarded to the real engine', () => {
  let account: AccountView;
  let draft: DraftView;

  it('connectSandbox starts the embedded sandbox and signs in as the demo user', async () => {
    account = await value<AccountView>('connectSandbox');
    expect(account.sandbox).toBe(true);
    expect(account.scope).toBe('write');
    expect(account.me?.uid).toBe('dana');
    expect(account.me?.email_verified).toBe(true);
    expect(account.serverUrl).toBe(sandbox.url);
    expect(account.serverUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await value<AccountView>('getAccount')).toMatchObject({
      serverUrl: account.serverUrl,
      sandbox: true,
      me: { uid: 'dana' },
    });
    // main stores the choice, never the URL or the key.
    const choice = await readFile(join(tmp, 'userData', 'shell.json'), 'utf8');
    expect(JSON.parse(choice)).toEqual({
      sandbox: { port: Number(new URL(account.serverUrl).port) },
    });
  });

  it('lists programs, creates and saves a draft, attaches evidence, checks it', async () => {
    await value('syncNow'); // programs come from the mirror
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
    const evidence = join(tmp, 'request.txt');
    await writeFile(evidence, 'GET /search?q=<script>alert(1)</script>\n');
    const attached = await value<{ name: string }[]>('attachFiles', draft.reportId, [
      { path: evidence },
    ]);
    expect(attached.map((e) => e.name)).toEqual(['request.txt']);
    const detail = await value<ReportDetailView>('getReport', draft.reportId);
    expect(detail.draft?.content.title).toBe('Reflected XSS in search');
    const checklist = await value<{ items: unknown[] }>('getChecklist', draft.reportId);
    expect(checklist.items.length).toBeGreaterThan(0);
    // An unknown but well-formed id reaches the engine, which answers null.
    expect(await value('getReport', '3f1c2a9e-8d4b-4c1e-9f2a-7b6c5d4e3f21')).toBeNull();
  });

  it('forwards engine events to the renderer as they are', async () => {
    received.length = 0;
    await value('syncNow');
    expect(received.map((r) => r.event)).toContain('status');
    const status = received.find((r) => r.event === 'status')?.payload as { budget: unknown };
    expect(status.budget).toBeDefined();
  });

  it('a sign-in error crosses as plain data with its field, never the key or a stack', async () => {
    const url = sandbox.url ?? '';
    const wrongKey = `sbx_${'Q'.repeat(43)}`;
    const result = await invoke('connect', { serverUrl: url, apiKey: wrongKey });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ name: 'SignInError', field: 'apiKey' });
    expect(JSON.stringify(result)).not.toContain('Q'.repeat(43));
    expect(result.error).not.toHaveProperty('stack');
    const malformed = await invoke('connect', { serverUrl: url, apiKey: 'not a key' });
    expect(malformed).toMatchObject({ ok: false, error: { field: 'apiKey' } });
    // Still signed in to the sandbox.
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
    expect(await invoke('openExternal', url)).toEqual({ ok: true, value: false });
    expect(shell.openExternal).not.toHaveBeenCalled();
  });

  it('openExternal opens a safe link in the OS browser', async () => {
    expect(await invoke('openExternal', 'https://example.com/policy')).toEqual({
      ok: true,
      value: true,
    });
    expect(shell.openExternal).toHaveBeenCalledWith('https://example.com/policy');
  });

  it('openWebsite for the sandbox: its account list, and a real onboarding link', async () => {
    const url = sandbox.url ?? '';
    expect(await value('openWebsite', 'api-keys')).toBe(true);
    expect(shell.openExternal).toHaveBeenLastCalledWith(`${url}/__sandbox/world`);
    expect(await value('openWebsite', 'payment-onboarding')).toBe(true);
    const link = shell.openExternal.mock.calls.at(-1)?.[0] ?? '';
    expect(link.startsWith(`${url}/__sandbox/onboarding/`)).toBe(true);
    // The link is the sandbox's real single-use page.
    const page = await fetch(link);
    expect(page.status).toBe(200);
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

  it('connecting to another server forgot the sandbox choice and stopped the sandbox', async () => {
    expect(sandbox.url).toBeNull();
    await expect(stat(join(tmp, 'userData', 'shell.json'))).rejects.toThrow();
  });

  it('asks where to save (default: the sanitized attachment name) and never opens the file', async () => {
    const target = join(tmp, 'saved', 'evidence.txt');
    await mkdir(join(tmp, 'saved'), { recursive: true });
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: target });
    const result = await value<{ savedTo: string }>('downloadFile', reportId, fileId);
    expect(result.savedTo).toBe(target);
    expect((await stat(target)).size).toBeGreaterThan(0);
    expect(dialog.showSaveDialog).toHaveBeenCalledTimes(1);
    const options = dialog.showSaveDialog.mock.calls[0]?.[0] as { defaultPath: string };
    expect(options.defaultPath).toBe(join(tmp, 'Downloads', 'request.txt'));
    expect(shell.openPath).not.toHaveBeenCalled();
    expect(shell.openExternal).not.toHaveBeenCalled();
  });

  it('answers null and writes nothing when the dialog is cancelled', async () => {
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: true });
    expect(await invoke('downloadFile', reportId, fileId)).toEqual({ ok: true, value: null });
    expect(shell.openPath).not.toHaveBeenCalled();
  });

  it('signOut removes the account; later calls that need one fail as plain errors', async () => {
    await value('signOut');
    expect(await value('getAccount')).toBeNull();
    const result = await invoke('listReports', {});
    expect(result).toMatchObject({ ok: false, error: { name: 'NotSignedInError' } });
  });
});
