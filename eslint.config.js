// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

const nodeBuiltins = [
  'fs',
  'path',
  'os',
  'child_process',
  'http',
  'https',
  'net',
  'crypto',
  'stream',
];

/** What every engine module may not import (one rule object replaces another: listed whole). */
function coreImports(/** @type {{ group: string[]; message: string }[]} */ more) {
  return {
    paths: [
      { name: 'electron', message: 'The engine never knows Electron exists.' },
      // These load `electron` themselves: the engine process must never run them.
      { name: 'electron-updater', message: 'Updates belong to main (src/main/updates.ts).' },
      { name: 'electron-log', message: "Use src/engine/log (electron-log's Node entry)." },
      { name: 'electron-log/main', message: "Use src/engine/log (electron-log's Node entry)." },
    ],
    patterns: [
      {
        group: ['**/main/**', '**/preload/**', '**/renderer/**'],
        message: 'Nothing points upward.',
      },
      { group: ['**/sandbox/**'], message: 'The engine talks to the sandbox only over HTTP.' },
      ...more,
    ],
  };
}

const engineLayers = {
  // Relative paths from a folder of src/engine (or one below it): `./outbox` in the store is its
  // own table module, not the outbox.
  group: ['engine', 'host', 'sync', 'outbox'].flatMap((layer) =>
    ['..', '../..'].flatMap((up) => [`${up}/${layer}`, `${up}/${layer}/**`]),
  ),
  message: 'Nothing points upward: the engine, its host, sync and outbox use this module.',
};

/** What every renderer module may not import, plus the renderer layers above the importer. */
function rendererImports(/** @type {string[]} */ above) {
  return {
    paths: ['electron', ...nodeBuiltins, ...nodeBuiltins.map((m) => `node:${m}`)],
    patterns: [
      {
        group: ['**/core/**', '**/sandbox/**', '**/main/**', '**/preload/**'],
        message: 'The renderer sees only the bridge contract.',
      },
      ...(above.length
        ? [
            {
              group: above.flatMap((layer) => [`**/${layer}`, `**/${layer}/**`]),
              message: 'Nothing points upward: app → screens → components → stores → lib, bridge.',
            },
          ]
        : []),
    ],
  };
}

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', 'src/shared/api/schema.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  prettier,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // Plain-JavaScript Node modules: the Electron stand-in of the tests and small scripts.
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
  // The direction of dependencies is part of the architecture: enforce it.
  {
    files: ['src/engine/**', 'src/shared/**', 'src/sandbox/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: 'Engine, contract and sandbox run under plain Node.' },
          ],
          patterns: [
            {
              group: ['**/main/**', '**/preload/**', '**/renderer/**'],
              message: 'Nothing points upward.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/engine/**'],
    rules: { 'no-restricted-imports': ['error', coreImports([])] },
  },
  // The command line is plain Node beside main: it never loads Electron (the app's --cli mode
  // hands it what it needs), nor main, the preload or the renderer.
  {
    files: ['src/cli/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The command runs under plain Node.' }],
          patterns: [
            {
              group: ['**/main/**', '**/preload/**', '**/renderer/**'],
              message: 'The command talks to the engine, not to the app shell.',
            },
          ],
        },
      ],
    },
  },
  // Inside the engine, arrows point down too: the host drives the engine, the engine its
  // session's parts (sync, outbox, store, api…), and those never reach back up: what they need
  // from above is handed to them as a port (the event bus in src/engine/events, the outbox's
  // OutgoingCheck).
  {
    files: ['src/engine/commands/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        coreImports([
          {
            group: ['../host', '../host/**'],
            message: 'The host drives the engine, not the reverse.',
          },
        ]),
      ],
    },
  },
  {
    files: ['src/engine/{sync,outbox}/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        coreImports([
          {
            group: ['../engine', '../engine/**', '../host', '../host/**'],
            message: 'Nothing points back up to the engine: take what you need as a port.',
          },
        ]),
      ],
    },
  },
  {
    files: ['src/engine/{api,store,domain,evidence,events,links,log,updates,diagnostics}/**'],
    rules: { 'no-restricted-imports': ['error', coreImports([engineLayers])] },
  },
  {
    files: ['src/engine/secrets/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        coreImports([
          engineLayers,
          {
            group: ['../api', '../api/**', '../store', '../store/**'],
            message: 'The keychain sits below the API client and the store (shared rules only).',
          },
        ]),
      ],
    },
  },
  // React's rules of hooks and the compiler-backed checks (refs in render, effects that only set
  // state, impure renders...), for the renderer's components and hooks.
  {
    files: ['src/renderer/**/*.{ts,tsx}', 'test/renderer/editor-harness/**/*.ts'],
    ...reactHooks.configs.flat['recommended-latest'],
    rules: {
      ...reactHooks.configs.flat['recommended-latest'].rules,
      // Only says React Compiler would skip memoizing a component (TanStack Virtual's hook); the
      // app is not compiled with React Compiler, so there is nothing to act on.
      'react-hooks/incompatible-library': 'off',
    },
  },
  {
    files: ['src/renderer/**'],
    rules: { 'no-restricted-imports': ['error', rendererImports([])] },
  },
  // The renderer's own layers: app (shell, routing) → screens → components → stores → lib and
  // bridge. A screen's route, a store's state and a helper never reach back up.
  {
    files: ['src/renderer/src/screens/**'],
    rules: { 'no-restricted-imports': ['error', rendererImports(['app'])] },
  },
  {
    files: ['src/renderer/src/components/**'],
    rules: { 'no-restricted-imports': ['error', rendererImports(['app', 'screens'])] },
  },
  {
    files: ['src/renderer/src/stores/**'],
    rules: {
      'no-restricted-imports': ['error', rendererImports(['app', 'screens', 'components'])],
    },
  },
  {
    files: ['src/renderer/src/{lib,bridge}/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        rendererImports(['app', 'screens', 'components', 'stores']),
      ],
    },
  },
);
