import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from '../support/app';
import { pathAliases } from '../../../scripts/path-aliases.mjs';

/**
 * Builds a harness of this folder for the browser (an IIFE script), as Vite builds the renderer:
 * `harness.ts` (the editor) by default, `boundary.ts` (the screens' error boundary).
 */
export async function buildEditorHarness(entry = 'harness'): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'bounty-desk-editor-harness-'));
  await build({
    configFile: false,
    logLevel: 'error',
    // Production, as the app ships (React's production build; TSX compiled without its dev runtime).
    mode: 'production',
    resolve: { alias: pathAliases() },
    esbuild: { jsx: 'automatic', jsxDev: false },
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2021',
      minify: false,
      lib: {
        entry: fileURLToPath(new URL(`./${entry}.ts`, import.meta.url)),
        formats: ['iife'],
        name: `${entry}HarnessBundle`,
        fileName: () => `${entry}.js`,
      },
    },
  });
  return join(outDir, `${entry}.js`);
}

/**
 * Debian's Chromium with a blank page holding the built harness `entry`, and the page errors
 * thrown since (loading it threw none, if empty).
 */
export async function openEditorHarness(
  entry = 'harness',
): Promise<{ browser: Browser; page: Page; pageErrors: string[] }> {
  const script = await buildEditorHarness(entry);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_FLAGS,
    timeout: 30_000,
  });
  const page = await browser.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto('about:blank');
  await page.addScriptTag({ path: script });
  return { browser, page, pageErrors };
}
