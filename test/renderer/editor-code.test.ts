import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { savedDraft } from '../support/drafts';
import { COMPLETE_DESCRIPTION } from '../support/fixtures';
import { randomInt } from '../support/random';
import { markdownBlocks, reportText, reportTexts } from '../support/report-texts';
import { useAppPerFile } from './support/app';
import { caretAtEndOf, goTo, pasteInto } from './support/ui';

/**
 * Code in the description editor, through the app as built, with real report text: inline code
 * switched on and off with nothing selected (Ctrl+E and the `</>` button), and a request pasted
 * into a code block already in the draft, every line of it saved, then a line typed below it.
 */
describe('renderer: code in the description editor', () => {
  const opened = useAppPerFile('editor-code', {});
  const LAST_LINE = 'Session theft through a crafted link.';

  const editor = (page: Page): Locator =>
    page.getByRole('textbox', { name: 'Description', exact: true });
  const button = (page: Page, name: string): Locator =>
    page
      .getByRole('toolbar', { name: 'Formatting', exact: true })
      .getByRole('button', { name, exact: true });

  /** A draft holding `description`, open and shown. */
  async function openDraft(
    title: string,
    description: string,
  ): Promise<{ page: Page; saved(): Promise<string> }> {
    const { host, page } = opened;
    const { reportId } = await savedDraft(host, { title, description });
    await goTo(page, `#/reports/${reportId}`);
    await editor(page).getByText(LAST_LINE, { exact: true }).waitFor();
    const saved = async (): Promise<string> =>
      (await host.engine.getReport(reportId))?.draft?.content.description ?? '';
    return { page, saved };
  }

  /** Whether the page's caret is in a code block. */
  const caretInCode = (page: Page): Promise<boolean> =>
    page.evaluate(() => {
      interface El {
        closest(s: string): unknown;
      }
      const g = globalThis as unknown as {
        getSelection(): { anchorNode: (Partial<El> & { parentElement: El | null }) | null };
      };
      const node = g.getSelection().anchorNode;
      const element = node?.closest ? (node as El) : node?.parentElement;
      return !!element?.closest('pre');
    });

  /** The parts of a line between backticks, with whether each is code. */
  function codeParts(line: string): { text: string; code: boolean }[] {
    return line.split('`').map((text, i) => ({ text, code: i % 2 === 1 }));
  }

  it('Ctrl+E and the </> button with nothing selected: what is typed next is code until switched off', async () => {
    // Gradio CVE-2024-1561 (vulhub): code spans with `_` and `/` in one sentence.
    const line = reportText('vulhub--gradio-CVE-2024-1561.md')
      .split('\n')
      .find((l) => l.startsWith('Next, use the `move_resource_to_block_cache`'));
    expect(line).toBeDefined();
    const { page, saved } = await openDraft('Gradio file read', COMPLETE_DESCRIPTION);
    await caretAtEndOf(editor(page).getByText(LAST_LINE, { exact: true }), LAST_LINE);
    await page.keyboard.press('Enter');
    let toggles = 0;
    const toggle = async (): Promise<void> => {
      // On by shortcut and off by button, then on by button and off by shortcut.
      if ([0, 3].includes(toggles++ % 4)) await page.keyboard.press('Control+e');
      else await button(page, 'Code').click();
    };
    for (const part of codeParts(line ?? '')) {
      if (part.code) await toggle();
      await page.keyboard.type(part.text);
      if (part.code) await toggle();
    }
    // Stored as the write-up has it: every code span whole, no `\_` added.
    await expect
      .poll(saved, { timeout: 15_000, interval: 100 })
      .toBe(`${COMPLETE_DESCRIPTION.trimEnd()}\n\n${line ?? ''}\n`);
    expect(await editor(page).locator('p').last().locator('code').allInnerTexts()).toEqual(
      codeParts(line ?? '')
        .filter((p) => p.code)
        .map((p) => p.text),
    );
  }, 120_000);

  it('with the caret inside inline code, Ctrl+E then typing leaves the code', async () => {
    // CouchDB CVE-2017-12636 (vulhub).
    const line = 'Then commands in `query_servers` will be executed.';
    expect(reportText('vulhub--couchdb-CVE-2017-12636.md')).toContain(line);
    const { page, saved } = await openDraft(
      'CouchDB command execution',
      `${COMPLETE_DESCRIPTION.trimEnd()}\n\n${line}\n`,
    );
    const shown = editor(page).getByText(line.replaceAll('`', ''), { exact: true });
    await caretAtEndOf(shown, ' will be executed.');
    // Into the code span, after `query`.
    for (let i = 0; i < ' will be executed.'.length + '_servers'.length; i++) {
      await page.keyboard.press('ArrowLeft');
    }
    await page.keyboard.press('Control+e');
    await page.keyboard.type(' and');
    await expect
      .poll(saved, { timeout: 15_000, interval: 100 })
      .toContain('Then commands in `query` and`_servers` will be executed.');
    // And on again, at the same caret: typed as code.
    await page.keyboard.press('Control+e');
    await page.keyboard.type('_cmd');
    await expect
      .poll(saved, { timeout: 15_000, interval: 100 })
      .toContain('Then commands in `query` and`_cmd_servers` will be executed.');
  }, 120_000);

  /**
   * HTTP requests of the corpus as researchers paste them: a request line, headers, a blank line,
   * a body. InfluxDB CVE-2019-20933 holds a bearer JWT, APISIX CVE-2020-13945 a JSON body with
   * `_M` and `'*a'` (emphasis if read as Markdown); one more is drawn by the run's seed.
   */
  function corpusRequests(): { name: string; request: string }[] {
    const found: { name: string; request: string }[] = [];
    for (const { name, text } of reportTexts()) {
      for (const block of markdownBlocks(text)) {
        const lines = block.split('\n');
        const fence = lines[0] ?? '';
        if (!/^```\w*$/.test(fence) || lines.at(-1) !== '```') continue;
        const request = lines.slice(1, -1).join('\n');
        if (!/^[A-Z]+ \S+ HTTP\/1\.[01]\n/.test(request) || !/\n\n\S/.test(request)) continue;
        if (request.includes('```') || request.includes('\t')) continue;
        found.push({ name, request });
      }
    }
    return found;
  }

  it('a request pasted into a code block already there: every line, the blank one too, saved literally, and a line typed after it', async () => {
    const all = corpusRequests();
    const pick = (name: string, body: string) =>
      all.find((r) => r.name === name && r.request.includes(body));
    const drawn = all[randomInt(all.length)];
    console.log(
      `requests pasted into a code block: ${all.length} in the corpus; drawn ${drawn?.name ?? ''} (TEST_SEED=${process.env.TEST_SEED ?? ''})`,
    );
    // Into an empty block (the Code block button, then a paste) or below the request line typed
    // in the block; as text, or with text/html beside it as a browser copies from a page.
    const cases = [
      {
        found: pick('vulhub--influxdb-CVE-2019-20933.md', 'Bearer eyJ'),
        into: 'empty',
        html: false,
      },
      {
        found: pick('vulhub--apisix-CVE-2020-13945.md', '"script": "local _M'),
        into: 'empty',
        html: true,
      },
      { found: drawn, into: 'below its first line', html: true },
    ] as const;
    for (const [i, { found, into, html }] of cases.entries()) {
      expect(found, `request ${i} in the corpus`).toBeDefined();
      const request = found?.request ?? '';
      const [first = '', ...rest] = request.split('\n');
      const { page, saved } = await openDraft(
        `Pasted request ${i}`,
        `${COMPLETE_DESCRIPTION.trimEnd()}\n\n\`\`\`http\n${into === 'empty' ? '' : `${first}\n`}\`\`\`\n`,
      );
      // The block is the description's last: Ctrl+End puts the caret at its end.
      await editor(page).locator('pre').click();
      await page.keyboard.press('Control+End');
      expect(await caretInCode(page)).toBe(true);
      const pasted = into === 'empty' ? request : `\n${rest.join('\n')}`;
      const escaped = pasted.replaceAll('&', '&amp;').replaceAll('<', '&lt;');
      await pasteInto(editor(page), {
        'text/plain': pasted,
        ...(html
          ? { 'text/html': `<meta charset="utf-8"><pre><code>${escaped}</code></pre>` }
          : {}),
      });
      await page.keyboard.press('Enter');
      await page.keyboard.type('HTTP/1.1 200 OK');
      const block = `\`\`\`http\n${request}\nHTTP/1.1 200 OK\n\`\`\``;
      await expect
        .poll(saved, { timeout: 15_000, interval: 100 })
        .toBe(`${COMPLETE_DESCRIPTION.trimEnd()}\n\n${block}\n`);
      // Shown as one block of code, never read as Markdown.
      expect(await editor(page).locator('pre').count()).toBe(1);
      expect(await editor(page).locator('em, strong').count()).toBe(0);
    }
  }, 240_000);
});
