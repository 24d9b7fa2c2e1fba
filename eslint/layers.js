// @ts-check
/**
 * The folders of src/ and which other folders each may import: the architecture as data, read by
 * the `layers/direction` lint rule (direction-rule.js), docs/architecture.md and its test.
 *
 * A file belongs to the longest folder below that holds it. A folder imports its own files and
 * what its `may` names (a name covers everything below it); anything else points upward or
 * sideways and fails `npm run lint`. Top to bottom, as the processes stack: the renderer talks to
 * main only through the preload's bridge; main starts the engine process and the command line
 * talks to it; the engine talks to the API; `src/shared` is below all of them.
 */

const SHARED = 'src/shared';
/** What the renderer may see of shared: everything but the Node-only process helpers. */
const SHARED_FOR_RENDERER = [
  'src/shared/api',
  'src/shared/bridge',
  'src/shared/errors',
  'src/shared/evidence',
  'src/shared/lookup',
  'src/shared/rules',
  'src/shared/scope',
  'src/shared/words',
];
const R = 'src/renderer/src';
/** What a screen may use, and the app shell with it. */
const UNDER_SCREENS = [
  `${R}/editor`,
  `${R}/components`,
  `${R}/stores`,
  `${R}/lib`,
  `${R}/bridge`,
  ...SHARED_FOR_RENDERER,
];

/** @type {{ folder: string; may: string[]; says: string }[]} */
export const LAYERS = [
  // The renderer: app (shell, routing) → screens → editor, components → stores → lib → bridge.
  {
    folder: R,
    may: [`${R}/app`, `${R}/stores`, `${R}/styles`, ...SHARED_FOR_RENDERER],
    says: 'the renderer’s entry',
  },
  {
    folder: `${R}/app`,
    may: [`${R}/screens`, ...UNDER_SCREENS],
    says: 'the app shell and its routes',
  },
  { folder: `${R}/screens`, may: UNDER_SCREENS, says: 'the screens' },
  {
    folder: `${R}/editor`,
    may: [`${R}/lib`, ...SHARED_FOR_RENDERER],
    says: 'the Markdown editor (no stores, no bridge)',
  },
  {
    folder: `${R}/components`,
    may: [`${R}/stores`, `${R}/lib`, `${R}/bridge`, ...SHARED_FOR_RENDERER],
    says: 'the shared components',
  },
  {
    folder: `${R}/stores`,
    may: [`${R}/lib`, `${R}/bridge`, ...SHARED_FOR_RENDERER],
    says: 'the renderer’s state',
  },
  {
    folder: `${R}/lib`,
    may: [`${R}/bridge`, ...SHARED_FOR_RENDERER],
    says: 'the renderer’s helpers',
  },
  { folder: `${R}/bridge`, may: SHARED_FOR_RENDERER, says: 'the renderer’s side of the bridge' },
  { folder: `${R}/styles`, may: [], says: 'the style sheets' },
  { folder: 'src/renderer', may: [R], says: 'the renderer’s page' },
  { folder: 'src/preload', may: SHARED_FOR_RENDERER, says: 'the preload (the bridge)' },
  // Main: Electron's main process, thin; its Electron-free rules below it.
  {
    folder: 'src/main',
    may: ['src/main/rules', 'src/main/generated', 'src/cli', 'src/engine', 'src/sandbox', SHARED],
    says: 'Electron’s main process',
  },
  { folder: 'src/main/rules', may: [SHARED], says: 'main’s Electron-free rules' },
  { folder: 'src/main/generated', may: [], says: 'the generated bridge validators' },
  {
    folder: 'src/cli',
    may: [
      'src/engine/host',
      'src/engine/commands',
      'src/engine/events',
      'src/engine/report-files',
      SHARED,
    ],
    says: 'the command line',
  },
  // The engine process: its host drives the command groups, which drive the session's parts.
  { folder: 'src/engine', may: [SHARED], says: 'the engine' },
  {
    folder: 'src/engine/host',
    may: [
      'src/engine/commands',
      'src/engine/diagnostics',
      'src/engine/log',
      'src/engine/secrets',
      'src/engine/store',
      'src/engine/api',
      SHARED,
    ],
    says: 'the engine process’s host',
  },
  {
    folder: 'src/engine/commands',
    may: [
      'src/engine/api',
      'src/engine/domain',
      'src/engine/events',
      'src/engine/evidence',
      'src/engine/log',
      'src/engine/outbox',
      'src/engine/report-files',
      'src/engine/secrets',
      'src/engine/store',
      'src/engine/sync',
      SHARED,
    ],
    says: 'the engine’s command groups',
  },
  {
    folder: 'src/engine/diagnostics',
    may: ['src/engine/evidence', 'src/engine/log', SHARED],
    says: 'the diagnostics bundle',
  },
  {
    folder: 'src/engine/sync',
    may: ['src/engine/api', 'src/engine/events', 'src/engine/store', SHARED],
    says: 'the polling loop',
  },
  {
    folder: 'src/engine/outbox',
    may: ['src/engine/api', 'src/engine/domain', 'src/engine/events', 'src/engine/store', SHARED],
    says: 'the outbox worker',
  },
  {
    folder: 'src/engine/store',
    may: ['src/engine/evidence', 'src/engine/log', SHARED],
    says: 'the SQLite mirror',
  },
  { folder: 'src/engine/api', may: [SHARED], says: 'the API client' },
  { folder: 'src/engine/domain', may: [SHARED], says: 'the report rules' },
  { folder: 'src/engine/evidence', may: [SHARED], says: 'the evidence readers' },
  { folder: 'src/engine/events', may: [SHARED], says: 'the event bus' },
  { folder: 'src/engine/log', may: [SHARED], says: 'the log' },
  { folder: 'src/engine/report-files', may: [SHARED], says: 'the report-folder library' },
  { folder: 'src/engine/secrets', may: [SHARED], says: 'the keychain' },
  // The sandbox is a separate server: it shares the API's definitions, nothing of the app.
  { folder: 'src/sandbox', may: [SHARED], says: 'the sandbox' },
  { folder: SHARED, may: [], says: 'the shared definitions' },
];

/** The folder that holds `file` (a path relative to the repository, with `/`), or undefined. */
export function layerOf(/** @type {string} */ file) {
  let best;
  for (const layer of LAYERS) {
    if (file === layer.folder || file.startsWith(`${layer.folder}/`)) {
      if (!best || layer.folder.length > best.folder.length) best = layer;
    }
  }
  return best;
}

/** Whether a file of `from` may import `file`: a file of its own folder, or of one it names. */
export function mayImport(
  /** @type {{ folder: string; may: string[] }} */ from,
  /** @type {string} */ file,
) {
  if (layerOf(file) === from) return true;
  return from.may.some((m) => file === m || file.startsWith(`${m}/`));
}
