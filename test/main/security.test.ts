import { describe, expect, it, vi } from 'vitest';
import {
  openSafeExternal,
  hardenSession,
  hardenWebContents,
  isLocalResource,
  isSafeExternalUrl,
  isTrustedSender,
} from '../../src/main/security';
import type { Session, WebContents } from 'electron';

// Electron cannot run here: these tests drive the hardening functions with recording stand-ins
// for the few Electron objects they touch.

describe('external links', () => {
  it.each([
    ['https://example.com/policy', true],
    ['http://example.com', true],
    ['mailto:security@example.com', true],
    ['javascript:alert(1)', false],
    ['data:text/html,<script>alert(1)</script>', false],
    ['file:///etc/passwd', false],
    ['vbscript:msgbox', false],
    ['https://user:pass@example.com', false],
    ['/reports/x/files/y', false],
    ['not a url', false],
  ])('%s → %s', (url, safe) => {
    expect(isSafeExternalUrl(url)).toBe(safe);
  });
});

function recordingContents() {
  const listeners = new Map<string, (event: { preventDefault(): void }) => void>();
  let openHandler: ((details: { url: string }) => { action: string }) | undefined;
  const contents = {
    setWindowOpenHandler: (h: typeof openHandler) => (openHandler = h),
    on: (name: string, fn: (event: { preventDefault(): void }) => void) => listeners.set(name, fn),
  };
  return { contents: contents as unknown as WebContents, listeners, open: () => openHandler };
}

describe('navigation and new windows', () => {
  it('denies window.open and hands only safe URLs to the OS browser', () => {
    const { contents, open } = recordingContents();
    const shell = { openExternal: vi.fn(async () => undefined) };
    hardenWebContents(contents, shell);
    expect(open()?.({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    expect(open()?.({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(shell.openExternal).toHaveBeenCalledTimes(1);
    expect(shell.openExternal).toHaveBeenCalledWith('https://example.com');
  });

  it.each(['will-navigate', 'will-redirect', 'will-attach-webview'])('prevents %s', (name) => {
    const { contents, listeners } = recordingContents();
    hardenWebContents(contents, { openExternal: async () => undefined });
    const event = { preventDefault: vi.fn() };
    listeners.get(name)?.(event);
    expect(event.preventDefault).toHaveBeenCalled();
  });
});

describe('session', () => {
  it('denies every permission request and check, and blocks remote requests', () => {
    let requestHandler: ((c: unknown, p: string, cb: (ok: boolean) => void) => void) | undefined;
    let checkHandler: (() => boolean) | undefined;
    let deviceHandler: (() => boolean) | undefined;
    let beforeRequest:
      ((d: { url: string }, cb: (r: { cancel: boolean }) => void) => void) | undefined;
    const session = {
      setPermissionRequestHandler: (h: typeof requestHandler) => (requestHandler = h),
      setPermissionCheckHandler: (h: typeof checkHandler) => (checkHandler = h),
      setDevicePermissionHandler: (h: typeof deviceHandler) => (deviceHandler = h),
      webRequest: { onBeforeRequest: (h: typeof beforeRequest) => (beforeRequest = h) },
    } as unknown as Session;
    hardenSession(session);
    const granted: boolean[] = [];
    requestHandler?.({}, 'media', (ok) => granted.push(ok));
    requestHandler?.({}, 'notifications', (ok) => granted.push(ok));
    expect(granted).toEqual([false, false]);
    expect(checkHandler?.()).toBe(false);
    expect(deviceHandler?.()).toBe(false);
    const decisions: boolean[] = [];
    beforeRequest?.({ url: 'https://tracker.example/x.png' }, (r) => decisions.push(r.cancel));
    beforeRequest?.({ url: 'file:///app/out/renderer/index.html' }, (r) =>
      decisions.push(r.cancel),
    );
    expect(decisions).toEqual([true, false]);
    expect(isLocalResource('http://127.0.0.1:4010/api/me')).toBe(false);
  });
});

describe('IPC sender check', () => {
  const rendererUrl = 'file:///opt/app/out/renderer/index.html';
  it('accepts the top-level app page only', () => {
    expect(isTrustedSender({ url: rendererUrl, parent: null }, rendererUrl)).toBe(true);
    expect(isTrustedSender({ url: `${rendererUrl}#/reports`, parent: null }, rendererUrl)).toBe(
      true,
    );
    expect(isTrustedSender({ url: rendererUrl, parent: {} }, rendererUrl)).toBe(false);
    expect(isTrustedSender({ url: 'https://evil.example/', parent: null }, rendererUrl)).toBe(
      false,
    );
    expect(isTrustedSender({ url: 'file:///tmp/evil.html', parent: null }, rendererUrl)).toBe(
      false,
    );
    expect(isTrustedSender(null, rendererUrl)).toBe(false);
  });
});

describe('openSafeExternal: the only way a URL reaches the OS', () => {
  it('opens safe URLs and refuses the rest without calling the shell', async () => {
    const shell = { openExternal: vi.fn(async () => undefined) };
    expect(await openSafeExternal(shell, 'mailto:security@example.com')).toBe(true);
    expect(await openSafeExternal(shell, 'file:///etc/passwd')).toBe(false);
    expect(await openSafeExternal(shell, 'ms-msdt:/id PCWDiagnostic')).toBe(false);
    expect(shell.openExternal.mock.calls).toEqual([['mailto:security@example.com']]);
  });
});

describe('development server (npm run dev only)', () => {
  it('is a local resource only when given, on its own host, over http or its ws socket', () => {
    const dev = 'http://localhost:5173/';
    expect(isLocalResource('http://localhost:5173/src/main.tsx', dev)).toBe(true);
    expect(isLocalResource('ws://localhost:5173/', dev)).toBe(true);
    expect(isLocalResource('http://localhost:5173/src/main.tsx')).toBe(false);
    expect(isLocalResource('http://localhost:6000/x', dev)).toBe(false);
    expect(isLocalResource('https://evil.example/', dev)).toBe(false);
  });

  it('a dev page is trusted only on the same host and path', () => {
    const dev = 'http://localhost:5173/';
    expect(isTrustedSender({ url: 'http://localhost:5173/#/reports', parent: null }, dev)).toBe(
      true,
    );
    expect(isTrustedSender({ url: 'http://evil.example/', parent: null }, dev)).toBe(false);
  });
});
