import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import type { Report } from '../../src/shared/api';
import { findFileLinks } from '../../src/shared/rules';
import { useAppPerFile } from './support/app';
import { caretAtEndOf, expectText, pasteInto, pointAfterText, until } from './support/ui';

/**
 * What the researcher types is what the program receives, through the app as built:
 * real report text typed into the editor (URLs, e-mails, domains, code spans, lists, a pasted
 * table and pasted HTML), files dropped at several places, then a submitted report whose
 * description on the server is exactly what the editor showed.
 */
describe('renderer: a typed report reaches the program as typed', () => {
  let reportId = '';

  const URL_TYPED = 'https://app.example.com/login?next=//evil.example&x=1';
  const MAIL = 'security@example.com';
  const DOMAIN = 'www.example.com/admin';
  const CODE = 'GET /api/v1/users?id=1';

  const description = (): Locator =>
    opened.page.getByRole('textbox', { name: 'Description', exact: true });
  const heading = (name: string): Locator =>
    description().getByRole('heading', { name, exact: true });
  /** The caret into the section below a template heading, the way a keyboard user gets there. */
  const intoSection = async (name: string): Promise<void> => {
    await caretAtEndOf(heading(name), name);
    await opened.page.keyboard.press('ArrowDown');
  };
  const shownText = async (): Promise<string> =>
    (await description().innerText()).replace(/\s+/g, ' ').trim();
  const draftMarkdown = async (): Promise<string> =>
    (await opened.host.engine.getReport(reportId))?.draft?.content.description ?? '';
  const paste = (data: Record<string, string>): Promise<void> => pasteInto(description(), data);

  const opened = useAppPerFile('typed-report', {
    beforeWindow: async (h) => {
      await h.engine.syncNow();
      return `#/programs/${h.programs.open.id}`;
    },
  });

  it('types each section below its heading: URLs, e-mails and domains stay as typed', async () => {
    await opened.page.getByRole('button', { name: 'New report', exact: true }).click();
    await description().waitFor();
    await opened.page
      .getByRole('textbox', { name: 'Title', exact: true })
      .fill('Open redirect after login');
    await opened.page
      .getByRole('textbox', { name: 'Asset', exact: true })
      .fill('https://app.example.com');

    await intoSection('Steps to reproduce');
    await opened.page.keyboard.type(`Open ${URL_TYPED} and sign in as ${MAIL}.`);
    await opened.page.keyboard.press('Enter');
    await opened.page.keyboard.type('1. Send the login form.');
    await opened.page.keyboard.press('Enter');
    // The habit of typing the next number: the list numbers the item itself.
    await opened.page.keyboard.type(`2. Visit ${DOMAIN} in the same tab.`);
    await opened.page.keyboard.press('Enter');
    await opened.page.keyboard.press('Enter');
    await opened.page.keyboard.type('Send `' + CODE + '` with the session cookie.');

    await intoSection('Expected behavior');
    await opened.page.keyboard.type('The redirect to another site is refused.');
    await intoSection('Actual behavior');
    await opened.page.keyboard.type('The browser lands on evil.example, logged in.');
    await opened.page.keyboard.press('Enter');
    // HTML pasted from a web page, then a table pasted as Markdown text.
    await paste({
      'text/html':
        '<p>Seen on <b>Chrome</b> <img src="https://evil.example/pixel.png" alt="tracking pixel" onerror="window.__pwned=1"><script>window.__pwned=2</script></p>',
      'text/plain': 'Seen on Chrome',
    });
    await opened.page.keyboard.press('Enter');
    await paste({
      'text/plain':
        '| Request | Result |\n| --- | --- |\n| next=//evil.example | 302 to evil.example |\n',
    });

    await intoSection('Security impact');
    await opened.page.keyboard.type('Phishing pages borrow the trusted login flow.');

    await until('the draft saved locally', async () => {
      const { items } = await opened.host.engine.listReports({});
      reportId = items.find((i) => i.title === 'Open redirect after login')?.id ?? '';
      return reportId !== '' && (await draftMarkdown()).includes('trusted login flow');
    });
    await until('the last keystrokes saved', async () =>
      (await draftMarkdown()).includes('Phishing pages borrow the trusted login flow.'),
    );
    const markdown = await draftMarkdown();
    for (const typed of [URL_TYPED, MAIL, DOMAIN, `\`${CODE}\``]) expect(markdown).toContain(typed);
    expect(markdown).not.toMatch(/https\\:|www\\\.|\\@|2\\\./);
    expect(markdown).toMatch(/1\. Send the login form\.\n2\. Visit www\.example\.com\/admin/);
    expect(markdown).toMatch(/\| next=\/\/evil\.example \| 302 to evil\.example \|/);
    // Pasted HTML: text and a plain link, no markup, nothing loaded, nothing run.
    expect(markdown).toContain(
      'Seen on **Chrome** [tracking pixel](https://evil.example/pixel.png)',
    );
    expect(markdown).not.toMatch(/<img|<script|onerror|!\[tracking/);
    expect(
      await opened.page.evaluate(() => (globalThis as { __pwned?: number }).__pwned),
    ).toBeUndefined();
    expect(opened.app.guard.requests.filter((r) => r.includes('evil.example'))).toEqual([]);
    // The hints under the headings are never text.
    expect(markdown).not.toContain('What should happen');
    for (const name of [
      'Steps to reproduce',
      'Expected behavior',
      'Actual behavior',
      'Security impact',
    ]) {
      expect(markdown).toMatch(new RegExp(`## ${name}\\n\\n[^#\\n]`));
    }
  });

  it('drops files below the last line, after a word, and two at once: each in its section, never glued', async () => {
    const poc = await opened.host.file('login.request.txt', 'POST /login HTTP/1.1\n');
    const har = await opened.host.file('har-capture.har', '{"log":{"entries":[]}}\n');
    const shot = await opened.host.file('redirect.txt', 'Location: //evil.example\n');
    const last = await opened.host.file('impact-notes.txt', 'notes\n');

    // Below the last line: the end of the last section, not its heading.
    await opened.host.dropFiles(description(), [
      { path: last, bytes: 'notes\n', type: 'text/plain' },
    ]);
    await until('the first link', async () => (await draftMarkdown()).includes('impact-notes.txt'));
    // Right after a sentence, then two files at once after another one.
    const box = await description().boundingBox();
    if (!box) throw new Error('the editor is not visible');
    const afterRefused = await pointAfterText(description(), 'is refused.');
    await opened.host.dropFiles(
      description(),
      [{ path: shot, bytes: 'Location: //evil.example\n', type: 'text/plain' }],
      { x: afterRefused.x - box.x, y: afterRefused.y - box.y },
    );
    await until('the second link', async () => (await draftMarkdown()).includes('redirect.txt'));
    const afterCookie = await pointAfterText(description(), 'with the session cookie.');
    await opened.host.dropFiles(
      description(),
      [
        { path: poc, bytes: 'POST /login HTTP/1.1\n', type: 'text/plain' },
        { path: har, bytes: '{"log":{"entries":[]}}\n', type: 'application/json' },
      ],
      { x: afterCookie.x - box.x, y: afterCookie.y - box.y },
    );
    await until('all four links', async () => findFileLinks(await draftMarkdown()).length === 4);

    const markdown = await draftMarkdown();
    const link = (name: string): string =>
      `\\[${name.replace(/\./g, '\\.')}\\]\\(/reports/${reportId}/files/[0-9a-f-]+\\)`;
    expect(markdown).toMatch(
      new RegExp(`session cookie\\. ${link('login.request.txt')} ${link('har-capture.har')}`),
    );
    expect(markdown).toMatch(new RegExp(`is refused\\. ${link('redirect.txt')}`));
    expect(markdown).toMatch(
      new RegExp(`## Security impact\\n\\n[^#]*${link('impact-notes.txt')}`),
    );
    expect(markdown).not.toMatch(/## [^\n]*\[/);
  });

  it('submits: the description on the server is exactly what the editor wrote and showed', async () => {
    await until(
      'every upload done and the draft sent',
      async () => {
        const detail = await opened.host.engine.getReport(reportId);
        return (
          !!detail &&
          detail.evidence.every((e) => e.state === 'uploaded') &&
          detail.outbox.every((e) => e.state === 'done')
        );
      },
      20_000,
    );
    const sent = await draftMarkdown();
    // The editor takes the engine's links in while the researcher is idle: all four show.
    await until('the editor shows every dropped file', async () => {
      const text = await shownText();
      return ['login.request.txt', 'har-capture.har', 'redirect.txt', 'impact-notes.txt'].every(
        (name) => text.includes(name),
      );
    });
    const shown = await shownText();
    await opened.page.getByRole('button', { name: 'Check and submit', exact: true }).click();
    const dialog = opened.page.getByRole('dialog', { name: 'Submit checklist', exact: true });
    const submit = dialog.getByRole('button', { name: 'Submit report', exact: true });
    await until('"Submit report" enabled', () => submit.isEnabled());
    await submit.click();
    let report: Report | null = null;
    await until(
      'the server has the submission',
      async () => {
        const res = await opened.host.sandbox.api<Report>('GET', `/api/reports/${reportId}`, {
          token: opened.host.key,
        });
        report = res.body;
        return res.body.status === 'triaging';
      },
      20_000,
    );
    const server = report as unknown as Report;
    expect(server.description).toBe(sent);
    expect(server.submission?.content.description).toBe(sent);

    // The report page shows the frozen description: the same text the researcher saw.
    const submission = opened.page.getByRole('region', { name: 'Submission', exact: true });
    await expectText(submission, /trusted login flow/, 15_000);
    const rendered = (await submission.locator('.markdown').innerText())
      .replace(/\s+/g, ' ')
      .trim();
    expect(rendered).toBe(shown);
    // The page opens at its top after submitting.
    expect(
      await opened.page
        .locator('main.content')
        .evaluate((main) => (main as unknown as { scrollTop: number }).scrollTop),
    ).toBe(0);
    expect(opened.app.guard.pageErrors).toEqual([]);
  });
});
