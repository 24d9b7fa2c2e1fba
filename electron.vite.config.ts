import { readFileSync } from 'node:fs';
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

export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin(), trayIcon],
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
    plugins: [react()],
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
