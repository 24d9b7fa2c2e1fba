/**
 * The description editor's round trip at scale: 10,000 generated report texts
 * (descriptions with pasted payloads), the real report corpus and the CommonMark and GFM specs'
 * examples through the
 * editor exactly as the app sets it up (`milkdown-setup.ts`, in Chromium, in batches), printing
 * how many are written back byte for byte, how many a reader sees the same (the app's renderer,
 * which shows raw HTML as its text), and how many change again on a second pass. Not a timing: it reports
 * counts, and exits 1 when a text is unstable or reads differently.
 *
 *   npx tsx bench/editor-roundtrip.ts [count]     (PROPERTY_SEED=<n> for other cases)
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { chromium } from 'playwright-core';
import { buildEditorHarness } from '../test/renderer/editor-harness/build';
import { CHROMIUM, CHROMIUM_FLAGS } from '../test/renderer/support/app';
import { COMMONMARK_EXAMPLES, reportWithPayloads } from '../test/support/generated-texts';
import { reportTexts } from '../test/support/report-texts';
import { COMMONMARK_READ_DIFFERENTLY, sameReading } from '../test/renderer/support/same-reading';
import { keptOutside, type KeptRoundTrip } from '../test/renderer/support/kept-outside';

interface RoundTrip {
  first: string;
  second: string;
  error?: string;
}

const COUNT = Number(process.argv[2]) || 10_000;
const SEED = Number(process.env.PROPERTY_SEED) || 22;
const BATCH = 250;

const gfm = JSON.parse(
  readFileSync(
    new URL('../test/fixtures/real/gfm-spec/extension-examples.json', import.meta.url),
    'utf8',
  ),
) as { number: number; markdown: string }[];

const script = await buildEditorHarness();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
const page = await browser.newPage();
await page.goto('about:blank');
await page.addScriptTag({ path: script });

async function run(inputs: string[]): Promise<RoundTrip[]> {
  const out: RoundTrip[] = [];
  for (let at = 0; at < inputs.length; at += BATCH) {
    const batch = inputs.slice(at, at + BATCH);
    out.push(
      ...(await page.evaluate(
        async (l) =>
          (
            globalThis as unknown as {
              editorHarness: { roundTrips(x: string[]): Promise<RoundTrip[]> };
            }
          ).editorHarness.roundTrips(l),
        batch,
      )),
    );
  }
  return out;
}

let failed = false;
async function report(name: string, inputs: string[], known = ''): Promise<void> {
  const started = Date.now();
  const results = await run(inputs);
  let identical = 0;
  let same = 0;
  const unstable: string[] = [];
  const differs: string[] = [];
  results.forEach((r, i) => {
    const input = inputs[i] ?? '';
    if (r.error) {
      unstable.push(`${JSON.stringify(input)}: threw ${r.error}`);
      return;
    }
    if (r.first === input || r.first === `${input.trimEnd()}\n`) identical++;
    if (sameReading(r.first, input)) same++;
    else differs.push(`${JSON.stringify(input)}\n    → ${JSON.stringify(r.first)}`);
    if (r.first !== r.second) {
      unstable.push(
        `${JSON.stringify(input)}\n    1st ${JSON.stringify(r.first)}\n    2nd ${JSON.stringify(r.second)}`,
      );
    }
  });
  const n = inputs.length;
  console.log(
    `${name}: ${n} texts in ${((Date.now() - started) / 1000).toFixed(0)} s — ` +
      `written back byte for byte ${identical}/${n}, read the same ${same}/${n}, ` +
      `stable on a second pass ${n - unstable.length}/${n}${known}`,
  );
  for (const line of unstable.slice(0, 20)) console.log(`  unstable: ${line}`);
  for (const line of differs.slice(0, 5)) console.log(`  reads differently: ${line}`);
  if (name.startsWith('generated') && (unstable.length > 0 || differs.length > 0)) failed = true;
}

/**
 * The real report corpus opened and saved as the app does: read the same after the save, written
 * back byte for byte, and after one word changed, byte for byte outside the changed block.
 */
async function reportCorpus(): Promise<void> {
  const texts = reportTexts();
  const started = Date.now();
  const inputs = texts.map((t) => t.text);
  const results: KeptRoundTrip[] = [];
  for (let at = 0; at < inputs.length; at += 20) {
    results.push(
      ...(await page.evaluate(
        async ({ l, seed }) =>
          (
            globalThis as unknown as {
              editorHarness: {
                keptRoundTrips(x: string[], seed: number): Promise<KeptRoundTrip[]>;
              };
            }
          ).editorHarness.keptRoundTrips(l, seed),
        { l: inputs.slice(at, at + 20), seed: SEED + at },
      )),
    );
  }
  let same = 0;
  let identical = 0;
  let edited = 0;
  let keptAround = 0;
  const misses: string[] = [];
  results.forEach((r, i) => {
    const { name, text } = texts[i] ?? { name: '?', text: '' };
    if (r.error) {
      misses.push(`${name}: threw ${r.error}`);
      return;
    }
    if (sameReading(r.saved, text)) same++;
    else misses.push(`${name}: reads differently after a save`);
    if (r.saved === text) identical++;
    if (r.edited === null) return;
    edited++;
    if (keptOutside(text, r.edited, r.span)) keptAround++;
    else misses.push(`${name}: "${r.word}" changed, other blocks rewritten`);
  });
  const n = texts.length;
  const share = edited === 0 ? 0 : (100 * keptAround) / edited;
  console.log(
    `real report corpus (test/fixtures/real/reports): ${n} texts in ` +
      `${((Date.now() - started) / 1000).toFixed(0)} s — read the same after a save ${same}/${n}, ` +
      `written back byte for byte ${identical}/${n}, one word changed: byte for byte outside ` +
      `the changed block ${keptAround}/${edited} (${share.toFixed(1)}%, target 95%)`,
  );
  for (const line of misses.slice(0, 20)) console.log(`  ${line}`);
  if (same < n || share < 95) failed = true;
}

console.log(`editor round trip (seed ${SEED})`);
await reportCorpus();
await report(
  'GFM spec extension examples',
  gfm.map((e) => e.markdown),
);
await report(
  'CommonMark spec examples',
  COMMONMARK_EXAMPLES.map((e) => e.markdown),
  ` (known to read differently: ${[...COMMONMARK_READ_DIFFERENTLY.keys()].join(', ')}, ` +
    'ProseMirror marks: test/renderer/support/same-reading.ts)',
);
await report(
  'real report texts (test/fixtures/real/reports)',
  reportTexts().map((r) => r.text),
);
await report(
  `generated report texts`,
  fc.sample(reportWithPayloads, { numRuns: COUNT, seed: SEED }),
);
await browser.close();
if (failed) process.exitCode = 1;
