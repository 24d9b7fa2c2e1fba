import type { Session, WebContents, WebPreferences } from 'electron';

/**
 * Electron's security checklist, in one place so it can be unit-tested without Electron:
 * an isolated, sandboxed renderer without Node; no navigation, no new windows, no webviews,
 * no permissions; external links only for http(s) and mailto, handed to the OS browser.
 */
export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    safeDialogs: true,
  };
}

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

/** Denies every navigation and window the page itself asks for; safe links go to the OS browser. */
export function hardenWebContents(contents: WebContents, shell: ExternalOpener): void {
  contents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** No camera, microphone, notifications-from-page, geolocation, etc.: the UI needs none of them. */
export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.webRequest.onBeforeRequest((details, callback) => {
    // The renderer is a local bundle: it never loads anything from the network.
    callback({ cancel: !isLocalResource(details.url) });
  });
}

export function isLocalResource(raw: string): boolean {
  try {
    const url = new URL(raw);
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
    return actual.protocol === expected.protocol && actual.pathname === expected.pathname;
  } catch {
    return false;
  }
}
