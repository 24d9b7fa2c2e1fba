/**
 * Electron's security checklist for the app window's webPreferences, as the tests demand it (the
 * preload path aside): an isolated, sandboxed renderer without Node, no webviews, no insecure
 * content, no navigation by drag and drop, no middle-click new windows.
 */
export const SECURE_WEB_PREFERENCES = {
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
  spellcheck: true,
  safeDialogs: true,
  disableBlinkFeatures: 'Auxclick',
} as const;
