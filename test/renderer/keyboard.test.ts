import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { MessageList, Report } from '../../src/shared/api';
import { useAppPerTest } from './support/app';
import { until } from './support/ui';

interface Focused {
  tag: string;
  role: string | null;
  name: string;
  /** The focus indicator drawn for it: an outline, or an outline on the block around it. */
  indicator: boolean;
}

/** The little of the DOM the page functions below use (the tests compile without DOM types). */
interface El {
  tagName: string;
  parentElement: El | null;
  textContent: string | null;
  getAttribute(name: string): string | null;
  matches(selector: string): boolean;
  closest(selector: string): El | null;
  querySelector(selector: string): El | null;
}
interface PageGlobals {
  document: { activeElement: El | null; body: El };
  getComputedStyle(el: El): { outlineStyle: string; outlineWidth: string };
}

/** What has keyboard focus now, and whether the user can see where it is. */
function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const g = globalThis as unknown as PageGlobals;
    const el = g.document.activeElement;
    if (!el || el === g.document.body)
      return { tag: 'body', role: null, name: '', indicator: false };
    // The focused element draws an outline, or the block around it does (the editor's frame).
    const outlined = (node: El): boolean => {
      for (let n: El | null = node; n; n = n.parentElement) {
        const style = g.getComputedStyle(n);
        if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) return true;
        if (n !== node && !n.matches(':focus-within')) break;
      }
      return false;
    };
    const labelled = el.getAttribute('aria-label') ?? '';
    const label = el.closest('label')?.querySelector('span')?.textContent ?? '';
    return {
      tag: el.tagName.toLowerCase(),
      role: el.getAttribute('role'),
      name: (labelled || label || el.textContent || '').trim().slice(0, 80),
      indicator: outlined(el),
    };
  });
}

/**
 * Presses Tab until the focused element matches, at most `max` times. Every element focused on
 * the way must show where the focus is.
 */
async function tabTo(
  page: Page,
  what: string,
  matches: (f: Focused) => boolean,
  max = 60,
): Promise<Focused> {
  const invisible: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    if (!now.indicator && now.tag !== 'body') invisible.push(`${now.tag} "${now.name}"`);
    if (matches(now)) {
      expect(invisible, `focus was invisible on the way to ${what}`).toEqual([]);
      return now;
    }
  }
  throw new Error(`Tab never reached ${what}`);
}

const named = (name: string) => (f: Focused) => f.name === name;

/** The whole journey with the keyboard alone: new draft, evidence, submit, reply. */
describe('renderer: keyboard only', () => {
  const apps = useAppPerTest('keyboard');

  it('writes, attaches, submits and replies without a mouse; focus is visible and follows', async () => {
    const { page, host: h } = await apps.open();
    await page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();

    // A program, its page (focus moves to its heading), then "New report".
    await tabTo(
      page,
      'the program link',
      (f) => f.tag === 'a' && /Sandbox Playground/.test(f.name),
    );
    await page.keyboard.press('Enter');
    await page
      .getByRole('heading', { name: 'Sandbox Playground', exact: true, level: 1 })
      .waitFor();
    await until('focus on the program heading', async () => (await focused(page)).tag === 'h1');
    await tabTo(page, '"New report"', named('New report'));
    await page.keyboard.press('Enter');

    // The new draft: focus is in its title.
    await until('focus in the title', async () => {
      const f = await focused(page);
      return f.tag === 'input' && f.name === 'Title';
    });
    await page.keyboard.type('Stored XSS in the profile name');
    await tabTo(page, 'the asset field', named('Asset'));
    await page.keyboard.type('https://playground.sandbox.test/profile');

    // The CVSS calculator: every metric chosen with the keyboard; "Use this vector" writes it and
    // gives the focus back to the button that opened the dialog.
    await tabTo(page, '"CVSS calculator"', named('CVSS calculator'));
    await page.keyboard.press('Enter');
    const calculator = page.getByRole('dialog', { name: 'CVSS 3.1 calculator', exact: true });
    await calculator.waitFor();
    await until('focus on the first metric', async () => (await focused(page)).tag === 'input');
    await page.keyboard.press('Space');
    for (let metric = 1; metric < 8; metric++) {
      await page.keyboard.press('Tab');
      await page.keyboard.press('Space');
    }
    await tabTo(page, '"Use this vector"', named('Use this vector'));
    await page.keyboard.press('Enter');
    await calculator.waitFor({ state: 'detached' });
    expect(await focused(page)).toMatchObject({ tag: 'button', name: 'CVSS calculator' });
    expect(
      await page.getByRole('textbox', { name: 'CVSS vector', exact: true }).inputValue(),
    ).toMatch(/^CVSS:3\.1\/AV:N\/AC:L\/PR:N\/UI:N\/S:U\/C:H\/I:H\/A:H$/);
    await tabTo(
      page,
      'the description',
      (f) => f.role === 'textbox' && f.name.length >= 0 && f.tag === 'div',
    );
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    for (const [heading, text] of [
      ['Steps to reproduce', 'Set the display name to a script tag and open the team page.'],
      ['Expected behavior', 'The name is shown as text.'],
      ['Actual behavior', 'The script runs.'],
      ['Security impact', 'Session theft of every team member.'],
    ] as const) {
      await page.keyboard.type(`## ${heading}`);
      await page.keyboard.press('Enter');
      await page.keyboard.type(text);
      await page.keyboard.press('Enter');
    }

    // The formatting toolbar: words typed and selected, Shift+Tab reaches the toolbar (one stop,
    // its focus visible), the arrow moves to "Italic", Enter formats and the focus is back in the
    // editor, where the caret goes on after the words.
    const inEditor = async (): Promise<boolean> => {
      const f = await focused(page);
      return f.role === 'textbox' && f.name === 'Description';
    };
    await page.keyboard.type('Seen in Chromium 140.');
    await page.keyboard.press('Shift+Home');
    await page.keyboard.press('Shift+Tab');
    await until('focus in the toolbar', async () => (await focused(page)).name === 'Bold');
    expect((await focused(page)).indicator).toBe(true);
    await page.keyboard.press('ArrowRight');
    expect(await focused(page)).toMatchObject({ tag: 'button', name: 'Italic', indicator: true });
    await page.keyboard.press('Enter');
    await until('focus back in the editor after "Italic"', inEditor);
    await page.keyboard.press('End');
    // A link with Ctrl+K: the address field takes the focus; Escape closes it and gives the focus
    // back to the editor; again, Enter adds the link and the focus is back in the editor.
    await page.keyboard.press('Enter');
    await page.keyboard.type('XSS reference');
    await page.keyboard.press('Shift+Home');
    await page.keyboard.press('ControlOrMeta+k');
    await until('focus in the link address', async () => (await focused(page)).tag === 'input');
    await page.keyboard.press('Escape');
    await until('focus back in the editor after Escape', inEditor);
    await page.keyboard.press('ControlOrMeta+k');
    await until('focus in the link address', async () => (await focused(page)).tag === 'input');
    await page.keyboard.type('https://owasp.org/www-community/attacks/xss/');
    await page.keyboard.press('Enter');
    await until('focus back in the editor after the link', inEditor);
    await page.keyboard.press('End');

    // Evidence from main's own open dialog, opened with the keyboard.
    const evidence = await h.file('xss-poc.txt', 'name=<script>alert(1)</script>\n');
    h.pickInDialog([evidence]);
    await tabTo(page, '"Attach files"', named('Attach files'));
    await page.keyboard.press('Enter');
    await page
      .getByRole('list', { name: 'Evidence', exact: true })
      .getByText('xss-poc.txt', { exact: true })
      .waitFor();
    await h.settled();

    // The checklist dialog takes the focus; "Submit report" is reached inside it.
    await tabTo(page, '"Check and submit"', named('Check and submit'));
    await page.keyboard.press('Enter');
    const checklist = page.getByRole('dialog', { name: 'Submit checklist', exact: true });
    await checklist.waitFor();
    // Escape closes it, and the focus is back on the button that opened it.
    await page.keyboard.press('Escape');
    await checklist.waitFor({ state: 'detached' });
    expect(await focused(page)).toMatchObject({ tag: 'button', name: 'Check and submit' });
    await page.keyboard.press('Enter');
    await checklist.waitFor();
    // It opens on its list (read first, a Tab from "Submit report"), not on Close: "Submit
    // report" is disabled while the checklist loads, and Close was the first control left.
    await until(
      'the focus on the checklist',
      async () => (await focused(page)).name === 'Checklist',
    );
    expect(await focused(page)).toMatchObject({ tag: 'ul', indicator: true });
    // Once it is checked: before, "Submit report" is disabled and Close the dialog's only stop.
    const submitReport = checklist.getByRole('button', { name: 'Submit report', exact: true });
    await until('the checklist checked, "Submit report" enabled', () => submitReport.isEnabled());
    // Tab goes round inside it: before its first control is its last (Close), after its last its
    // first (the browser's own dialog let the focus out to the page's body, unshown).
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toMatchObject({ tag: 'button', name: 'Close' });
    await page.keyboard.press('Tab');
    const wrapped = await focused(page);
    expect(wrapped.tag).not.toBe('body');
    expect(wrapped.name).not.toBe('Close');
    expect(
      await page.evaluate(
        () =>
          !!(globalThis as unknown as PageGlobals).document.activeElement?.closest(
            '[role="dialog"]',
          ),
      ),
    ).toBe(true);
    await tabTo(page, '"Submit report"', named('Submit report'));
    await page.keyboard.press('Enter');
    await h.settled();
    const reportId = (await h.engine.listReports({})).items.find(
      (r) => r.title === 'Stored XSS in the profile name',
    )?.id;
    if (!reportId) throw new Error('the draft is listed');
    await until('the report is submitted', async () => {
      const view = await h.engine.getReport(reportId);
      return view?.report?.status === 'triaging';
    });

    // The team asks; Ctrl+R syncs; the reply goes out with Ctrl+Enter.
    await h.sandbox.askForInformation(reportId, 'Which browser?');
    await page.keyboard.press('ControlOrMeta+r');
    await page.getByText('Which browser?').waitFor({ timeout: 15_000 });
    await tabTo(page, 'the reply box', (f) => f.tag === 'textarea', 120);
    await page.keyboard.type('Firefox 140 on Linux.');
    await page.keyboard.press('ControlOrMeta+Enter');
    // The reply reaches the engine over IPC and then the outbox: wait for the server's thread.
    const researcherMessages = async () =>
      (
        await h.sandbox.api<MessageList>('GET', `/api/reports/${reportId}/messages`, {
          token: h.key,
        })
      ).body.messages
        .filter((m) => m.author === 'researcher')
        .map((m) => m.body);
    await until('the reply on the server', async () => (await researcherMessages()).length > 0);
    await h.settled();
    expect(await researcherMessages()).toEqual(['Firefox 140 on Linux.']);
    const server = await h.sandbox.api<Report>('GET', `/api/reports/${reportId}`, { token: h.key });
    expect(server.body.status).toBe('triaging');
    expect(Object.values(server.body.attachments).map((a) => a.name)).toEqual(['xss-poc.txt']);
    expect(server.body.description).toContain(
      [
        '## Security impact',
        'Session theft of every team member.',
        '*Seen in Chromium 140.*',
        '[XSS reference](https://owasp.org/www-community/attacks/xss/)',
      ].join('\n\n'),
    );
  }, 120_000);
});
