import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { pathAliases } from './scripts/path-aliases.mjs';

const root = fileURLToPath(new URL('.', import.meta.url));
/** `@shared/…`, `@engine/…` (tsconfig.base.json's paths), for every bundle. */
const resolveAliases = { alias: pathAliases() };

/** The tray icon, next to the main bundle (`out/main/icon.png`, inside app.asar when packaged). */
const trayIcon = {
  name: 'bounty-desk-tray-icon',
  generateBundle(this: {
    emitFile(file: { type: 'asset'; fileName: string; source: Uint8Array }): string;
  }) {
    this.emitFile({
      type: 'asset',
      fileName: 'icon.png',
      source: readFileSync(resolve(root, 'resources/icon.png')),
    });
  },
};

/**
 * The open report's own code (its screen, the draft editor, the chunks they share) compiled whole
 * as it loads in the list's idle time, not function by function on the first click: V8's compile
 * hint `//# allFunctionsCalledOnLoad` (Chromium 136 and later; Electron 45 is 142). A new
 * renderer has no code cache for file:// pages, so every start compiles the app anew. Three
 * interleaved A/B pairs of the first open in a new renderer process (6 opens each) gave medians of
 * 107 → 95, 90 → 78 and 91 → 71 ms. The editor's libraries stay lazy: the spare editor
 * (editor/spare-editor.ts) runs their code while the list is idle already.
 */
const COMPILED_WHOLE = ['ReportScreen', 'DraftEditor', 'CharCounter', 'useLoaded'];
const compileHints = {
  name: 'bounty-desk-compile-hints',
  // Once written: Vite adds its preload helper at the top of a chunk after every plugin's
  // generateBundle, and the hint has to come first.
  writeBundle(options: { dir?: string }, bundle: Record<string, { type: string }>): void {
    for (const name of COMPILED_WHOLE) {
      const file = `assets/${name}.js`;
      // A chunk renamed by a change of the code: said, not skipped in silence.
      if (bundle[file]?.type !== 'chunk' || !options.dir)
        throw new Error(`compile hints: no chunk ${file} (update COMPILED_WHOLE)`);
      const path = resolve(options.dir, file);
      writeFileSync(path, `//# allFunctionsCalledOnLoad\n${readFileSync(path, 'utf8')}`);
    }
  },
};

/**
 * Pure-JS packages the engine (and the command line) load at every start, bundled into main's
 * bundles instead of loaded from node_modules: Node would otherwise resolve, read and compile
 * each of their files on its own (micromark is about a hundred) and run its CommonJS lexer over
 * the CommonJS ones, the largest part of an engine's start. The renderer bundles them already.
 * Native modules (better-sqlite3, the keychain), electron-log, p-limit (its queue's class private
 * fields would stop the security scanner, which cannot read them) and what loads on first use
 * only (YAML, secretlint, the XML parser, Ajv) stay external.
 */
const BUNDLED_IN_MAIN = [
  'ae-cvss-calculator',
  'escape-string-regexp',
  'ipaddr.js',
  'mdast-util-from-markdown',
  'mdast-util-gfm',
  'micromark-extension-gfm',
  'mime-types',
  'node-diff3',
  'openapi-fetch',
  'stemmer',
  'tldts',
];

export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin({ exclude: BUNDLED_IN_MAIN }), trayIcon],
    resolve: resolveAliases,
    // Class private fields (`#x`) are lowered: the security scanner (Electronegativity) cannot
    // analyse them and would skip the whole main bundle.
    oxc: { target: 'es2021' },
    build: {
      rollupOptions: {
        // Main, the two processes it starts (the engine and the embedded sandbox), and the command line. Modules
        // they share land in chunks next to them.
        input: {
          index: resolve(root, 'src/main/index.ts'),
          engine: resolve(root, 'src/engine/host/engine-process.ts'),
          sandbox: resolve(root, 'src/sandbox/sandbox-process.ts'),
          // The command line (plain Node): beside the engine it starts when the app is not running.
          cli: resolve(root, 'src/cli/index.ts'),
        },
      },
    },
  },
  preload: {
    plugins: [externalizeDepsPlugin()],
    resolve: resolveAliases,
    build: {
      // A sandboxed preload cannot be an ES module.
      rollupOptions: {
        input: { index: resolve(root, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'src/renderer'),
    plugins: [react(), compileHints],
    resolve: resolveAliases,
    build: {
      // As for main: the scanner cannot analyse class private fields (here from dependencies).
      target: 'es2021',
      // electron-vite leaves the renderer unminified; minified, the page has a third of the code
      // to parse and evaluate before its first paint (docs/architecture.md, "First paint").
      minify: true,
      rollupOptions: {
        input: { index: resolve(root, 'src/renderer/index.html') },
        // Stable names (no content hash: a local file:// app has no cache to bust), so the
        // justified scanner findings in docs/security.md can name the file.
        output: {
          entryFileNames: 'assets/[name].js',
          chunkFileNames: 'assets/[name].js',
          assetFileNames: 'assets/[name][extname]',
        },
      },
    },
  },
});
