/**
 * The reports of the rows the list shows are read while the researcher reads the list
 * (stores/report.ts, `readShownRows`), through the app as built: a click on one shows it without
 * waiting for the engine, the report is read again behind the open (a change nobody announced
 * shows), and a call of the page that may change a report drops what was read ahead. The open
 * screen's secondary reads (`useLoadedAfterPaint`) wait until the draft is painted.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { AppHost } from '../app/host';
import type { DraftContent } from '../../src/shared/bridge/views';
import { useAppPerTest } from './support/app';
import { watchInvokes, type Invokes } from './support/invokes';
import { expectText, until } from './support/ui';

/** Real report texts: a request with a bearer token and a JSON body, a wildcard host, a path. */
const DRAFTS: DraftContent[] = [
  {
    title: 'IDOR on /api/v2/orders/{id}/refund',
    asset: 'https://api.example.com',
    description: [
      '## Steps to reproduce',
      '',
      '```http',
      'POST /api/v2/orders/7/refund HTTP/1.1',
      'Host: api.example.com',
      'Authorization: Bearer 8f14e45fceea167a5a36dedd4bea2543',
      'Content-Type: application/json',
      '',
      '{"amount": 100, "note": "another user\'s order"}',
      '```',
    ].join('\n'),
    cvss_vector: '',
  },
  {
    title: 'Subdomain takeover on *.example.com',
    asset: '*.example.com',
    description: '## Summary\n\n`legacy.example.com` points at an unclaimed bucket.',
    cvss_vector: '',
  },
  {
    title: 'Path traversal in the export',
    asset: 'https://app.example.com/export',
    description: '## Impact\n\nReads `C:\\Windows\\win.ini` through `..\\..\\` in `name`.',
    cvss_vector: '',
  },
];

const titleField = (page: Page) => page.getByRole('textbox', { name: 'Title', exact: true });
const description = (page: Page) => page.getByRole('textbox', { name: 'Description', exact: true });
const rowLink = (page: Page, title: string) =>
  page.locator('[aria-label="Reports"] .report-row a', { hasText: title });

describe('renderer: the rows in view are read ahead of a click', () => {
  const apps = useAppPerTest('shown-reads');

  /**
   * The app at the list with the drafts (their ids, in DRAFTS' order), loaded again with its
   * bridge calls watched from the start (those matching `hold` held).
   */
  async function listWithDrafts(
    hold?: RegExp,
  ): Promise<{ host: AppHost; page: Page; ids: string[]; calls: Invokes }> {
    const ids: string[] = [];
    const { host, page } = await apps.open({
      hash: '#/reports',
      beforeWindow: async (h) => {
        for (const content of DRAFTS) {
          const draft = await h.engine.createDraft(h.programs.open.id);
          await h.engine.saveDraft(draft.reportId, content);
          ids.push(draft.reportId);
        }
      },
    });
    const calls = await watchInvokes(page, hold, { reload: true });
    for (const draft of DRAFTS) await rowLink(page, draft.title).waitFor();
    return { host, page, ids, calls };
  }

  const peeked = async (calls: Invokes): Promise<unknown[]> =>
    (await calls.made()).filter((c) => c.channel === 'bridge:call:peekReport').map((c) => c.first);

  /** The list sat quiet: each draft's report was read ahead. */
  const readAhead = (calls: Invokes, ids: string[]): Promise<void> =>
    until(
      'the drafts in view read ahead',
      async () => {
        const read = await peeked(calls);
        return ids.every((id) => read.includes(id));
      },
      15_000,
    );

  it("a click on a row read ahead shows its draft with the engine's answers held, then reads it again behind", async () => {
    // Every `getReport` held: what shows, shows from the read ahead.
    const { page, ids, calls } = await listWithDrafts(/getReport$/u);
    await readAhead(calls, ids);
    expect(await calls.count('getReport')).toBe(0);
    // The rows in view, not the list's whole mirror.
    expect((await peeked(calls)).length).toBeLessThanOrEqual(12);

    const [first] = DRAFTS;
    if (!first) throw new Error('no draft');
    await rowLink(page, first.title).click();
    await expectText(page.locator('.workspace-detail h1'), first.title);
    expect(await titleField(page).inputValue()).toBe(first.title);
    await expectText(description(page), 'Authorization: Bearer 8f14e45fceea167a5a36dedd4bea2543');
    await expectText(description(page), '{"amount": 100, "note": "another user\'s order"}');
    // The read behind the open, made once the open is painted (and held here).
    await until('the report read again', async () => (await calls.count('getReport')) === 1);
    await calls.release();
    await page.waitForTimeout(300);
    expect(await titleField(page).inputValue()).toBe(first.title);
    expect(await calls.count('getReport')).toBe(1);
  }, 120_000);

  it('a draft changed since it was read, with no word to the page, shows as it is now', async () => {
    const { host, page, ids, calls } = await listWithDrafts();
    await readAhead(calls, ids);
    const [, second] = DRAFTS;
    const secondId = ids[1];
    if (!second || !secondId) throw new Error('no draft');
    // Changed through main's handler, not the page: no call of the page. Every answer of the
    // service slow, so the engine's word that it changed (once its outbox has sent the draft)
    // comes long after the click: only the read behind the open can show the change by then.
    await host.sandbox.faults({ rate: 1, latency_ms: 10_000 });
    const changed = `${second.title} (CNAME to an S3 bucket)`;
    await host.engine.saveDraft(secondId, { ...second, title: changed }, second);

    await rowLink(page, second.title).click();
    await until(
      'the title as it is now',
      async () => (await titleField(page).inputValue()) === changed,
      4_000,
    );
    await expectText(page.locator('.workspace-detail h1'), changed);
    await expectText(description(page), 'legacy.example.com');
    await host.sandbox.clearFaults();
  }, 120_000);

  it('a call of the page that may change a report drops the reads ahead: the click waits for the engine', async () => {
    const { page, ids, calls } = await listWithDrafts(/getReport$/u);
    await readAhead(calls, ids);
    const third = DRAFTS[2];
    if (!third) throw new Error('no draft');

    await page.getByRole('button', { name: 'Sync now', exact: true }).click();
    await until('the sync asked for', async () => (await calls.count('syncNow')) === 1);
    await rowLink(page, third.title).click();
    // Its read held: the screen waits, then says it is loading; not the draft as read before.
    await until('the click read the report', async () => (await calls.count('getReport')) === 1);
    await page.waitForTimeout(300);
    expect(await page.locator('.workspace-detail h1').count()).toBe(0);
    await calls.release();
    await expectText(page.locator('.workspace-detail h1'), third.title);
    await expectText(description(page), 'C:\\Windows\\win.ini');
  }, 120_000);

  it("the screen's secondary reads start once the draft is painted, its two program reads as one call", async () => {
    const { page, ids, calls } = await listWithDrafts();
    await readAhead(calls, ids);
    const [first] = DRAFTS;
    if (!first) throw new Error('no draft');
    // When a frame first ran with the draft's heading in the page: that frame paints it.
    await page.evaluate((title) => {
      const g = globalThis as unknown as {
        __shownAt: number | null;
        document: { querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> };
        performance: { now(): number };
        requestAnimationFrame(run: () => void): number;
      };
      g.__shownAt = null;
      const look = (): void => {
        const shown = Array.from(g.document.querySelectorAll('.workspace-detail h1')).some(
          (h) => h.textContent === title,
        );
        if (shown) g.__shownAt = g.performance.now();
        else g.requestAnimationFrame(look);
      };
      g.requestAnimationFrame(look);
    }, first.title);
    const before = (await calls.made()).length;

    await rowLink(page, first.title).click();
    await expectText(page.locator('.workspace-detail h1'), first.title);
    // The scope hint and the policy notice both need the program; the findings, the scan.
    await until('the program and the scan read', async () => {
      const made = (await calls.made()).slice(before).map((c) => c.channel);
      return made.includes('bridge:call:getProgram') && made.includes('bridge:call:scanEvidence');
    });
    await page.waitForTimeout(300);
    const shownAt = await page.evaluate(
      () => (globalThis as unknown as { __shownAt: number | null }).__shownAt,
    );
    if (shownAt === null) throw new Error('no frame showed the draft');
    const secondary = (await calls.made())
      .slice(before)
      .filter((c) => /getProgram|scanEvidence|findSimilarReports/u.test(c.channel));
    expect(secondary.filter((c) => c.channel === 'bridge:call:getProgram')).toHaveLength(1);
    for (const call of secondary) expect(call.at, call.channel).toBeGreaterThan(shownAt);
  }, 120_000);

  it('a draft read ahead shows its scope hint in the frame that first shows it: its program was read with the rows', async () => {
    const { page, ids, calls } = await listWithDrafts();
    await readAhead(calls, ids);
    // The three drafts are of one program: read once, behind their rows.
    await until(
      "the drafts' program read ahead",
      async () => (await calls.count('getProgram')) > 0,
    );
    await page.waitForTimeout(300);
    expect(await calls.count('getProgram')).toBe(1);
    const [first] = DRAFTS;
    if (!first) throw new Error('no draft');
    // In the first frame that runs with the draft's heading: the scope hint's text, if any.
    await page.evaluate((title) => {
      const g = globalThis as unknown as {
        __hintAtShow: string | null | undefined;
        document: {
          querySelectorAll(s: string): ArrayLike<{ textContent: string | null }>;
          querySelector(s: string): { textContent: string | null } | null;
        };
        requestAnimationFrame(run: () => void): number;
      };
      g.__hintAtShow = undefined;
      const look = (): void => {
        const shown = Array.from(g.document.querySelectorAll('.workspace-detail h1')).some(
          (h) => h.textContent === title,
        );
        if (shown)
          g.__hintAtShow =
            g.document.querySelector('.workspace-detail .scope-hint')?.textContent ?? null;
        else g.requestAnimationFrame(look);
      };
      g.requestAnimationFrame(look);
    }, first.title);

    await rowLink(page, first.title).click();
    await expectText(page.locator('.workspace-detail h1'), first.title);
    const hint = page.locator('.workspace-detail .scope-hint');
    await hint.waitFor();
    // The read after the paint still comes (the program may have changed), and changes nothing.
    await until(
      'the program read again after the paint',
      async () => (await calls.count('getProgram')) === 2,
    );
    await page.waitForTimeout(200);
    const settled = await hint.textContent();
    const atShow = await page.evaluate(
      () => (globalThis as unknown as { __hintAtShow: string | null | undefined }).__hintAtShow,
    );
    expect(settled).toMatch(/scope/iu);
    expect(atShow).toBe(settled);
  }, 120_000);
});
