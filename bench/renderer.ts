/**
 * Renderer benchmark, the app as built (renderer in Chromium, main under the Electron stand-in,
 * the engine in its own process) against the sandbox:
 * - first paint of the reports screen with 10,000 mirrored reports, against the first paint of
 *   the app's empty first-run screen;
 * - scrolling the whole virtualized list, counting frames slower than 16 ms (rAF deltas), against
 *   the same scroll over a plain static list of as many rows;
 * - keystroke-to-paint latency in the editor holding a 30,000-character description (keydown to the
 *   task after the next frame, frames not held to 60 Hz), against a plain <textarea> with the
 *   same text;
 * - the renderer bundle gzipped (every file under assets/), against its raw size.
 * Run alone with `bash scripts/with-keyring.sh npx tsx bench/renderer.ts`, or `npm run bench`.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { TEMPLATE_HEADINGS } from '../src/shared/api';
import { AppHost } from '../test/app/host';
import { NAME_SHIM, openApp, startSuite, type Suite } from '../test/renderer/support/app';
import { ROOT } from '../test/app/build';
import { formatResults, median, percentile, type BenchResult } from './result';

const REPORTS = 10_000;
const PAINT_RUNS = 5;
const KEYSTROKES = 120;
const DESCRIPTION_CHARS = 30_000;
/** A frame slower than this missed the 60 Hz budget. */
const FRAME_BUDGET_MS = 16;
/** rAF deltas come in whole vsync intervals (16.7 ms); this one means a frame was dropped. */
const DROPPED_FRAME_MS = 16.7 * 1.5;

interface PageGlobals {
  __paint?: number;
  __mark?: () => void;
  performance: { now(): number };
  requestAnimationFrame(cb: (t: number) => void): number;
  setTimeout(cb: () => void, ms: number): number;
  document: {
    querySelector(s: string): PageElement | null;
    addEventListener(type: string, cb: () => void, capture: boolean): void;
    scrollingElement: PageElement | null;
    documentElement: PageElement;
  };
  MutationObserver: new (cb: () => void) => {
    observe(node: unknown, o: object): void;
    disconnect(): void;
  };
  getComputedStyle(el: PageElement): { overflowY: string };
}
interface PageElement {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  parentElement: PageElement | null;
  querySelector(s: string): PageElement | null;
  textContent: string | null;
}

/** Records (in the page) when `selector` first holds a link, one frame later: its first paint. */
function watchFirstPaint(selector: string): void {
  const g = globalThis as unknown as PageGlobals;
  const check = (): boolean => {
    const root = g.document.querySelector(selector);
    if (!root || !root.querySelector('a, h1')) return false;
    g.requestAnimationFrame(() => g.setTimeout(() => (g.__paint = g.performance.now()), 0));
    return true;
  };
  const observer = new g.MutationObserver(() => {
    if (check()) observer.disconnect();
  });
  g.document.addEventListener(
    'DOMContentLoaded',
    () => observer.observe(g.document.documentElement, { childList: true, subtree: true }),
    true,
  );
}

async function firstPaint(page: Page, selector: string): Promise<number> {
  await page.addInitScript(watchFirstPaint, selector);
  const times: number[] = [];
  for (let i = 0; i < PAINT_RUNS; i++) {
    // The page is already at `url`: each run is a fresh load of the whole app.
    await page.reload();
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).__paint !== undefined, {
      timeout: 30_000,
    });
    times.push(await page.evaluate(() => (globalThis as unknown as PageGlobals).__paint ?? NaN));
  }
  return median(times);
}

/** Scrolls the nearest scrolling ancestor of `selector` to its end, returning the rAF deltas. */
async function scrollThrough(page: Page, selector: string, step: number): Promise<number[]> {
  return page.evaluate(
    async ({ selector: s, step: px }) => {
      const g = globalThis as unknown as PageGlobals;
      let el = g.document.querySelector(s);
      while (
        el &&
        !(
          el.scrollHeight > el.clientHeight + 1 &&
          /auto|scroll/.test(g.getComputedStyle(el).overflowY)
        )
      ) {
        el = el.parentElement;
      }
      const box = el ?? g.document.scrollingElement ?? g.document.documentElement;
      box.scrollTop = 0;
      const deltas: number[] = [];
      await new Promise<void>((resolve) => {
        let last = 0;
        const frame = (t: number): void => {
          if (last > 0) deltas.push(t - last);
          last = t;
          if (box.scrollTop + box.clientHeight >= box.scrollHeight - 1) {
            resolve();
            return;
          }
          box.scrollTop += px;
          g.requestAnimationFrame(frame);
        };
        g.requestAnimationFrame(frame);
      });
      return deltas;
    },
    { selector, step },
  );
}

const UNTHROTTLED_FRAMES = ['--disable-frame-rate-limit', '--disable-gpu-vsync'];

/** Types `count` characters at the caret, timing keydown → a rAF after the input event. */
async function keystrokes(page: Page, count: number): Promise<number[]> {
  await page.evaluate(() => {
    const g = globalThis as unknown as PageGlobals & { __lat: number[]; __t0: number };
    g.__lat = [];
    g.document.addEventListener('keydown', () => (g.__t0 = g.performance.now()), true);
    g.document.addEventListener(
      'input',
      () => {
        const t0 = g.__t0;
        // The rAF callback runs before the frame's paint; a task queued from it runs after.
        g.requestAnimationFrame(() =>
          g.setTimeout(() => g.__lat.push(g.performance.now() - t0), 0),
        );
      },
      true,
    );
  });
  for (let i = 0; i < count; i++) {
    await page.keyboard.type(i % 8 === 7 ? ' ' : ('abcdefg'[i % 7] ?? 'x'));
    await page.waitForTimeout(30);
  }
  await page.waitForTimeout(100);
  return page.evaluate(() => (globalThis as unknown as { __lat: number[] }).__lat);
}

function longDescription(): string {
  const sentence =
    'The login redirect accepts any absolute URL in the next parameter after sign-in. ';
  const per = Math.floor(DESCRIPTION_CHARS / TEMPLATE_HEADINGS.length);
  const text = TEMPLATE_HEADINGS.map((h) => {
    let body = '';
    while (body.length + sentence.length < per - h.length - 12) {
      body += body.length % 800 < sentence.length ? `\n\n${sentence}` : sentence;
    }
    return `## ${h}\n\n${body.trim()}\n`;
  }).join('\n');
  return text.slice(0, DESCRIPTION_CHARS);
}

async function bundleSize(dir: string): Promise<{ raw: number; gzip: number }> {
  const assets = join(dir, 'assets');
  let raw = 0;
  let gzip = 0;
  for (const name of await readdir(assets)) {
    const bytes = await readFile(join(assets, name));
    raw += bytes.byteLength;
    gzip += gzipSync(bytes, { level: 9 }).byteLength;
  }
  return { raw, gzip };
}

export async function benchRenderer(): Promise<BenchResult[]> {
  const suite: Suite = await startSuite();
  const suites: Suite[] = [suite];
  const results: BenchResult[] = [];
  // Baseline first: the first-run screen of the same bundle, before signing in.
  const fresh = await AppHost.open({ rateLimits: 'off' });
  const host = await AppHost.open({ rateLimits: 'off' });
  try {
    const empty = await openApp(suite, fresh);
    const emptyPaint = await firstPaint(empty.page, 'main');
    await empty.close();
    await fresh.close();

    await host.sandbox.control('POST', '/__sandbox/bulk-reports', {
      uid: host.account.uid,
      count: REPORTS,
      submitted_share: 0.5,
    });
    const syncStart = performance.now();
    await host.mirrorBeforeStart();
    const syncMs = performance.now() - syncStart;
    const mirrored = (await host.engine.listReports({ limit: 1 })).total;
    results.push({ name: `engine sync of ${mirrored} reports (setup)`, value: syncMs, unit: 'ms' });

    const app = await openApp(suite, host, { hash: '#/reports' });
    const listPaint = await firstPaint(app.page, '[aria-label="Reports"]');
    results.push({
      name: `reports screen first paint, ${mirrored} reports (median of ${PAINT_RUNS})`,
      value: listPaint,
      unit: 'ms',
      baseline: emptyPaint,
      ratio: listPaint / emptyPaint,
    });

    const deltas = await scrollThrough(app.page, '[aria-label="Reports"]', 600);
    const plain = await suite.browser.newPage({ viewport: { width: 1280, height: 800 } });
    await plain.setContent(
      `<ul aria-label="Reports" style="height:700px;overflow-y:auto;margin:0">${Array.from(
        { length: mirrored },
        (_, i) => `<li style="height:56px"><a href="#r${i}">Report ${i}</a> Accepted</li>`,
      ).join('')}</ul>`,
    );
    await plain.evaluate(NAME_SHIM);
    const plainDeltas = await scrollThrough(plain, '[aria-label="Reports"]', 600);
    await plain.close();
    const over = (d: number[], ms: number): number => d.filter((x) => x > ms).length;
    // rAF deltas are whole vsync intervals (16.7 ms at 60 Hz): "over 16 ms" means over one.
    const slow = FRAME_BUDGET_MS + 1;
    results.push({
      name: `reports scroll: frames over ${FRAME_BUDGET_MS} ms, of ${deltas.length} (plain static list: ${over(plainDeltas, slow)} of ${plainDeltas.length})`,
      value: over(deltas, slow),
      unit: 'frames',
    });
    results.push({
      name: `reports scroll: dropped frames (delta > ${DROPPED_FRAME_MS.toFixed(0)} ms) (plain static list: ${over(plainDeltas, DROPPED_FRAME_MS)})`,
      value: over(deltas, DROPPED_FRAME_MS),
      unit: 'frames',
    });
    const p95 = percentile(deltas, 95);
    const plainP95 = percentile(plainDeltas, 95);
    results.push({
      name: 'reports scroll: p95 frame time',
      value: p95,
      unit: 'ms',
      baseline: plainP95,
      ratio: p95 / plainP95,
    });
    await app.close();

    // The editor with a 30,000-character description.
    const draft = await host.engine.createDraft(host.programs.open.id);
    const description = longDescription();
    await host.engine.saveDraft(draft.reportId, {
      title: 'Keystroke latency',
      asset: 'https://app.example.com/',
      description,
      cvss_vector: '',
    });
    // Frames are not held to the display's 60 Hz here: at 60 Hz every keystroke waits for the
    // next vsync (up to 16.7 ms, the same for a plain textarea), which is the screen's latency,
    // not the editor's. Unthrottled, keydown-to-paint is the work the keystroke costs.
    const unthrottled = await startSuite(UNTHROTTLED_FRAMES);
    suites.push(unthrottled);
    const editor = await openApp(unthrottled, host, { hash: `#/reports/${draft.reportId}` });
    const box = editor.page.getByRole('textbox', { name: 'Description', exact: true });
    await box.waitFor({ timeout: 30_000 });
    await box.getByText('Security impact', { exact: true }).click();
    await editor.page.keyboard.press('End');
    await editor.page.keyboard.press('Enter');
    const editorLat = await keystrokes(editor.page, KEYSTROKES);
    await editor.close();

    const textarea = await unthrottled.browser.newPage({ viewport: { width: 1280, height: 800 } });
    await textarea.setContent('<textarea style="width:1200px;height:700px"></textarea>');
    await textarea.evaluate(NAME_SHIM);
    await textarea.locator('textarea').fill(description);
    await textarea.locator('textarea').press('End');
    const plainLat = await keystrokes(textarea, KEYSTROKES);
    await textarea.close();
    const editorP95 = percentile(editorLat, 95);
    const plainLatP95 = percentile(plainLat, 95);
    results.push({
      name: `editor keystroke-to-paint p95, ${description.length}-character description`,
      value: editorP95,
      unit: 'ms',
      baseline: plainLatP95,
      ratio: editorP95 / plainLatP95,
      target: '< 16 ms',
      ok: editorP95 < 16,
    });
    results.push({
      name: 'editor keystroke-to-paint median',
      value: median(editorLat),
      unit: 'ms',
      baseline: median(plainLat),
      ratio: median(editorLat) / median(plainLat),
    });

    const size = await bundleSize(join(ROOT, 'out/renderer'));
    results.push({
      name: 'renderer bundle, assets/* gzipped',
      value: size.gzip / 1024,
      unit: 'KiB',
      baseline: size.raw / 1024,
      ratio: size.gzip / size.raw,
    });
  } finally {
    await host.close();
    for (const open of suites) await open.close();
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(formatResults('renderer', await benchRenderer()));
}
