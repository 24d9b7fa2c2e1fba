// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import layers from './eslint/direction-rule.js';

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

const nodeOnly = ['electron', ...nodeBuiltins, ...nodeBuiltins.map((m) => `node:${m}`)];

/** Packages a folder may not load, with why (folder direction is `layers/direction`'s). */
function noPackages(/** @type {(string | { name: string; message: string })[]} */ paths) {
  /** @type {import('eslint').Linter.RulesRecord} */
  const rules = { 'no-restricted-imports': ['error', { paths }] };
  return rules;
}
const ELECTRON_FREE = [
  {
    name: 'electron',
    message: 'This folder runs under plain Node: it never knows Electron exists.',
  },
  // These load `electron` themselves: the engine process must never run them.
  { name: 'electron-updater', message: 'Updates belong to main (src/main/updates.ts).' },
  { name: 'electron-log', message: "Use src/engine/log (electron-log's Node entry)." },
  { name: 'electron-log/main', message: "Use src/engine/log (electron-log's Node entry)." },
];

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
  // The direction of dependencies is part of the architecture: every folder of src/ imports
  // only the folders eslint/layers.js names for it.
  {
    files: ['src/**/*.{ts,tsx,js,mjs}'],
    plugins: { layers },
    rules: { 'layers/direction': 'error' },
  },
  // Plain Node: the engine process, the command line, the sandbox, shared and main's rules.
  {
    files: ['src/engine/**', 'src/cli/**', 'src/sandbox/**', 'src/shared/**', 'src/main/rules/**'],
    rules: noPackages(ELECTRON_FREE),
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
  // Tests and benches draw every random value from the run's printed seed (test/support/random.ts):
  // a failure must replay. Only the seed itself comes from the OS.
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    ignores: ['test/support/random-seed.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        ...['crypto', 'node:crypto'].map((name) => ({
          name,
          importNames: [
            'randomBytes',
            'randomUUID',
            'randomInt',
            'getRandomValues',
            'randomFillSync',
          ],
          message: 'Draw it from the seed: test/support/random.ts.',
        })),
      ],
      'no-restricted-properties': [
        'error',
        {
          object: 'Math',
          property: 'random',
          message: 'Draw it from the seed: test/support/random.ts.',
        },
        {
          object: 'crypto',
          property: 'randomUUID',
          message: 'Draw it from the seed: test/support/random.ts.',
        },
        {
          object: 'crypto',
          property: 'getRandomValues',
          message: 'Draw it from the seed: test/support/random.ts.',
        },
      ],
    },
  },
  // The renderer is a web page: no Electron, no Node (sandboxed, context-isolated).
  {
    files: ['src/renderer/**'],
    rules: noPackages(nodeOnly),
  },
);
