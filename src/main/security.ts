/**
 * Electron's security checklist, kept Electron-free so it can be unit-tested: no navigation, no new
 * windows, no webviews, no permissions; external links only for http(s) and mailto, handed to the
 * OS browser. The window's own settings (isolated, sandboxed, no Node) are in window.ts.
 */
import type { Session, WebContents } from 'electron';
import { isDictionaryDownload } from './spellcheck';

const EXTERNAL_SCHEMES = new Set(['https:', 'http:', 'mailto:']);

/** True only for absolute http(s)/mailto URLs without credentials; everything else stays closed. */
export function isSafeExternalUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (!EXTERNAL_SCHEMES.has(url.protocol)) return false;
  if (url.protocol !== 'mailto:' && (url.username || url.password || !url.hostname)) return false;
  return true;
}

export interface ExternalOpener {
  openExternal(url: string): Promise<void>;
}

/**
 * The app's only way to hand a URL to the OS: after `isSafeExternalUrl`, through
 * `shell.openExternal`. False (and nothing opened) for anything else.
 */
export async function openSafeExternal(shell: ExternalOpener, url: string): Promise<boolean> {
  if (!isSafeExternalUrl(url)) return false;
  await shell.openExternal(url);
  return true;
}

/** Denies every navigation and window the page itself asks for; safe links go to the OS browser. */
export function hardenWebContents(contents: WebContents, shell: ExternalOpener): void {
  contents.setWindowOpenHandler(({ url }) => {
    void openSafeExternal(shell, url).catch(() => undefined);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** No camera, microphone, notifications-from-page, geolocation, etc.: the UI needs none of them. */
export function hardenSession(session: Session, devServerOrigin?: string): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.webRequest.onBeforeRequest((details, callback) => {
    // The renderer is a local bundle: it never loads anything from the network.
    // (`npm run dev` only: also the Vite dev server that serves it.) The one exception is not the
    // page's: the spell checker's Hunspell dictionary, from its one source (spellcheck.ts).
    callback({
      cancel: !isLocalResource(details.url, devServerOrigin) && !isDictionaryDownload(details.url),
    });
  });
}

export function isLocalResource(raw: string, devServerOrigin?: string): boolean {
  try {
    const url = new URL(raw);
    if (devServerOrigin && sameDevOrigin(url, devServerOrigin)) return true;
    return url.protocol === 'file:' || url.protocol === 'devtools:' || url.protocol === 'data:';
  } catch {
    return false;
  }
}

/** IPC calls are accepted only from the app's own top-level page. */
export function isTrustedSender(
  frame: { url: string; parent: unknown } | null | undefined,
  rendererUrl: string,
): boolean {
  if (!frame || frame.parent) return false;
  try {
    const actual = new URL(frame.url);
    const expected = new URL(rendererUrl);
    return (
      actual.protocol === expected.protocol &&
      actual.host === expected.host &&
      actual.pathname === expected.pathname
    );
  } catch {
    return false;
  }
}

/** The dev server over http, and its hot-reload socket over ws on the same host. */
function sameDevOrigin(url: URL, devServerOrigin: string): boolean {
  const dev = new URL(devServerOrigin);
  const scheme = url.protocol === 'ws:' ? 'http:' : url.protocol;
  return scheme === dev.protocol && url.host === dev.host;
}
