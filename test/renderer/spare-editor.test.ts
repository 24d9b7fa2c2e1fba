/**
 * The spare description editor (`spare-editor.ts`), in Chromium: a draft opened in an editor made
 * ahead is the draft a newly built editor opens (the Markdown it writes, the text it shows, an
 * empty undo history, the screen told of changes as often, the screen's attributes and lock), for
 * every real report text; and a paced build runs a phase per step of its pace. The list's idle
 * prefetch waits, as the spare does, until the researcher has been quiet for a second.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertFileLinkAt } from '../../src/shared/rules';
import { reportTexts } from '../support/report-texts';
import { randomInt, useStream } from '../support/random';
import { openEditorHarness } from './editor-harness/build';
import type { OpenCase, Opened } from './editor-harness/spare-opens';

/** Texts drawn from the corpus per run. */
const SAMPLED = 48;

let browser: Browser;
let page: Page;

interface SpareHarness {
  opens(cases: OpenCase[]): Promise<{ fresh: Opened; spare: Opened }[]>;
  pacedBuild(): Promise<{ steps: number; readyBeforeLastStep: boolean; ready: boolean }>;
  preparedWhileTyping(): Promise<{ made: boolean; readyAfterLastKeyMs: number }>;
  prefetchedWhileScrolling(): Promise<{ startedAfterLastScrollMs: number[] }>;
}

beforeAll(async () => {
  let pageErrors: string[];
  ({ browser, page, pageErrors } = await openEditorHarness('spare'));
  expect(pageErrors).toEqual([]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('the spare description editor (Chromium)', () => {
  it(`opens ${SAMPLED} real report texts (the seed's draw) as a new editor opens them`, async () => {
    useStream('spare-editor');
    // A spare is made a phase per idle period: every text of the corpus would take two minutes.
    const all = reportTexts();
    const texts = Array.from({ length: SAMPLED }, () =>
      all.splice(randomInt(all.length), 1),
    ).flat();
    // Half of them locked (a draft being submitted); some with a picture of another report's
    // file, which only the screen's report id tells apart from one of its own.
    const cases: OpenCase[] = texts.map(({ text }, i) => {
      const withImage =
        i % 3 === 0
          ? insertFileLinkAt(text, randomInt(text.length + 1), {
              name: 'C:\\Users\\me\\Desktop\\poc.png',
              reportId: 'other-report',
              fileId: `file-${i}`,
              image: true,
            }).markdown
          : text;
      return { markdown: withImage, editable: randomInt(2) === 0, reportId: `report-${i}` };
    });
    const results = await page.evaluate(
      (c) => (globalThis as unknown as { spareHarness: SpareHarness }).spareHarness.opens(c),
      cases,
    );
    const differ = results.flatMap(({ fresh, spare }, i) =>
      JSON.stringify(fresh) === JSON.stringify(spare)
        ? []
        : [
            `${texts[i]?.name}:\n  new   ${JSON.stringify(fresh).slice(0, 300)}\n  spare ${JSON.stringify(spare).slice(0, 300)}`,
          ],
    );
    const opened = results.filter((r) => !r.spare.error).length;
    console.log(
      `spare editor: ${opened}/${cases.length} real report texts opened as a new editor opens them (${texts.map((t) => t.name).join(', ')})`,
    );
    expect(results.map((r) => r.spare.error).filter(Boolean)).toEqual([]);
    expect(differ).toEqual([]);
    // What was compared is the text's, not the spare's first text, and nothing to undo.
    for (const [i, { spare }] of results.entries()) {
      expect(spare.undoDepth).toBe(0);
      expect(spare.label).toBe(`Description of report-${i}`);
      expect(spare.editable).toBe(String(cases[i]?.editable));
    }
    const foreign = results.filter((r) => r.spare.shown.includes('a file of another report'));
    expect(foreign.length).toBe(cases.filter((c) => c.markdown.includes('other-report')).length);
  }, 240_000);

  it('begins a spare only once the keys have been quiet for a second', async () => {
    const prepared = await page.evaluate(() =>
      (globalThis as unknown as { spareHarness: SpareHarness }).spareHarness.preparedWhileTyping(),
    );
    expect(prepared.made).toBe(true);
    expect(prepared.readyAfterLastKeyMs).toBeGreaterThanOrEqual(1_000);
  }, 60_000);

  it('builds an editor a phase per step of its pace, ready only after the last', async () => {
    const built = await page.evaluate(() =>
      (globalThis as unknown as { spareHarness: SpareHarness }).spareHarness.pacedBuild(),
    );
    // Before the schema, the parser, the document's state and the view.
    expect(built).toEqual({ steps: 4, readyBeforeLastStep: false, ready: true });
  }, 60_000);

  it("holds the list's idle prefetch back while the page scrolls", async () => {
    const { startedAfterLastScrollMs } = await page.evaluate(() =>
      (
        globalThis as unknown as { spareHarness: SpareHarness }
      ).spareHarness.prefetchedWhileScrolling(),
    );
    expect(startedAfterLastScrollMs).toHaveLength(3);
    for (const ms of startedAfterLastScrollMs) expect(ms).toBeGreaterThanOrEqual(1_000);
  }, 60_000);
});
