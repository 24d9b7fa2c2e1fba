import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

/** Builds the editor harness for the browser (an IIFE script), as Vite builds the renderer. */
export async function buildEditorHarness(): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'bounty-desk-editor-harness-'));
  await build({
    configFile: false,
    logLevel: 'error',
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2021',
      minify: false,
      lib: {
        entry: fileURLToPath(new URL('./harness.ts', import.meta.url)),
        formats: ['iife'],
        name: 'editorHarnessBundle',
        fileName: () => 'harness.js',
      },
    },
  });
  return join(outDir, 'harness.js');
}
