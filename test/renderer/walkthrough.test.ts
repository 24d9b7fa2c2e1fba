import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useAppPerTest } from './support/app';
import { hasFocus, connection, expectText, goTo, nav, until } from './support/ui';
import type { AppHost } from '../app/host';
import { COMPLETE_DESCRIPTION } from '../support/fixtures';
import { fakeJwt } from '../support/fake-secrets';
import { savedDraft } from '../support/drafts';
import { reportText } from '../support/report-texts';

/**
 * What a researcher's day through the built app found, one test per defect: links and
 * routes naming what is not there, dialogs and the focus, offline, the words of errors.
 */
describe('renderer: a researcher day without friction', () => {
  const apps = useAppPerTest('walkthrough');

  const hash = async (p: Page): Promise<string> => new URL(p.url()).hash;
  const emit = (h: AppHost, name: string, args: unknown[]): Promise<unknown> =>
    h.start().ask({ t: 'app-event', name, args });

  it('a link or route naming a property of Object (constructor, __proto__, toString) is a program not found, and the app stays usable', async () => {
    const { host, page, app } = await apps.open({ hash: '#/programs/constructor' });
    const notFound = page.getByRole('heading', { name: 'Program not found', exact: true });
    await notFound.waitFor();
    for (const key of ['__proto__', 'toString', 'valueOf', 'hasOwnProperty']) {
      await goTo(page, `#/programs/${key}`);
      await until(`the route of ${key}`, async () => (await hash(page)) === `#/programs/${key}`);
      await notFound.waitFor();
    }
    await nav(page, 'Programs').click();
    await page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();

    // The same through the OS: a bountydesk:// link.
    await emit(host, 'open-url', ['bountydesk://program/constructor']);
    await until('the program route', async () => (await hash(page)) === '#/programs/constructor');
    await notFound.waitFor();
    await nav(page, 'Reports').click();
    await page.getByRole('heading', { name: 'Reports', exact: true }).waitFor();
    const reportsNav = page
      .getByRole('navigation', { name: 'Main', exact: true })
      .getByRole('link', { name: 'Reports', exact: true });
    expect(await reportsNav.getAttribute('aria-current')).toBe('page');
    expect(app.guard.pageErrors).toEqual([]);
    expect(app.guard.consoleErrors.filter((e) => /could not be shown/.test(e))).toEqual([]);
  });

  it('offline is calm: no alert, never "Offline" and "Syncing…" at once, no "Unsent changes" panel while typing and attaching', async () => {
    const { host, page, app } = await apps.open({
      beforeWindow: async (h) => {
        await h.engine.syncNow();
      },
    });
    const draft = await host.engine.createDraft(host.programs.open.id);
    await goTo(page, `#/reports/${draft.reportId}`);
    const title = page.getByRole('textbox', { name: 'Title', exact: true });
    await title.waitFor();
    const saveLine = page.locator('.save-state');
    await expectText(saveLine, /Saved and sent\./);

    // What the window shows at any moment: alerts, the panel, and the status bar's words.
    const problems: string[] = [];
    const look = async (when: string): Promise<void> => {
      const alerts = await page.getByRole('alert').allInnerTexts();
      if (alerts.length > 0) problems.push(`${when}: alert ${JSON.stringify(alerts)}`);
      const panels = await page
        .getByRole('region', { name: 'Unsent changes', exact: true })
        .count();
      if (panels > 0) problems.push(`${when}: the "Unsent changes" panel`);
      const bar = await connection(page).innerText();
      if (/Offline/.test(bar) && /Syncing/.test(bar)) problems.push(`${when}: ${bar}`);
    };

    await host.sandbox.faults({ rate: 1, reset_connection: true, seed: 5 });
    try {
      await page.getByRole('button', { name: 'Sync now', exact: true }).click();
      for (const word of ['Stored', ' XSS', ' in', ' the', ' profile']) {
        await title.pressSequentially(word);
        await look(`after typing "${word}"`);
        await page.waitForTimeout(400);
        await look(`after the save of "${word}"`);
      }
      await expectText(connection(page), /Offline/, 30_000);
      const evidence = await host.file('poc.txt', 'GET /profile?name=<script>alert(1)</script>\n');
      host.pickInDialog([evidence]);
      await page.getByRole('button', { name: 'Attach files', exact: true }).click();
      await page
        .getByRole('list', { name: 'Evidence', exact: true })
        .getByText('poc.txt', { exact: true })
        .waitFor();
      for (let i = 0; i < 10; i++) {
        await look(`offline, ${i * 300} ms after the upload was queued`);
        await page.waitForTimeout(300);
      }
      await title.pressSequentially(' bio');
      await expectText(saveLine, /Saved on this computer; sent when the connection returns\./);
      await look('offline, the save line says so');
      await expectText(connection(page), /\b[1-9]\d* unsent\b/);
    } finally {
      await host.sandbox.clearFaults();
    }
    expect(problems).toEqual([]);
    await page.getByRole('button', { name: 'Sync now', exact: true }).click();
    await expectText(saveLine, /Saved and sent\./, 45_000);
    expect(app.guard.pageErrors).toEqual([]);
  });

  it('errors say who held a change back and name the field in words; counts read as numbers', async () => {
    const { host, page } = await apps.open();
    // A save held back by the app's own credential check: the server never saw it.
    const draft = await savedDraft(host, {
      title: 'Token in the debug header',
      asset: 'https://app.example.com/debug',
      description: `${COMPLETE_DESCRIPTION}\n\nAuthorization: Bearer ${fakeJwt()}\n`,
    });
    await host.settled();
    await goTo(page, `#/reports/${draft.reportId}`);
    // Said where its findings are, once there: not in a panel of its own above the form.
    const held = page
      .getByRole('region', { name: 'Credentials check', exact: true })
      .getByRole('list', { name: 'Held back by this check', exact: true });
    await expectText(
      held,
      /^The draft's last save: held back, the service has not seen it\.\s*Discard$/,
    );
    expect(await page.getByRole('region', { name: 'Unsent changes' }).count()).toBe(0);
    await expectText(
      page.locator('.save-state'),
      /^Saved on this computer; held back until each possible credential below is redacted or kept\.$/,
    );
    // It goes by itself once the findings are handled: a Retry would only hold it back again.
    expect(await held.getByRole('button', { name: 'Retry', exact: true }).count()).toBe(0);
    expect(await held.getByRole('button', { name: 'Discard', exact: true }).count()).toBe(1);
    // Beside "Discard draft", the button says which change it discards.
    const describedBy = await held.getByRole('button').getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).innerText()).toBe(
      "The draft's last save: held back, the service has not seen it.",
    );

    // A file one byte over 10 MiB: the two sizes differ in the words.
    const big = await host.file('capture.har', new Uint8Array(10 * 1024 * 1024 + 1));
    host.pickInDialog([big]);
    await page.getByRole('button', { name: 'Attach files', exact: true }).click();
    await expectText(
      page.getByRole('alert').filter({ hasText: 'capture.har' }),
      /is 10,485,761 bytes, over the limit of 10,485,760 bytes \(10\.0 MiB\)/,
    );

    // One report is "1 report".
    await nav(page, 'Reports').click();
    await expectText(page.getByText(/^[\d,]+ reports?\b/), /^1 report$/);

    // A reply too long for the API, as the bridge refuses it.
    const sent = await savedDraft(host, {
      title: 'Reflected XSS in search',
      asset: 'https://app.example.com/search',
    });
    await host.engine.submit(sent.reportId);
    await host.settled();
    await expect(
      host.engine.postMessage(sent.reportId, { body: 'x'.repeat(12_001), files: [] }),
    ).rejects.toThrow(/Message body is too long \(12,001 of 12,000 characters\)/);
  });

  // A walk discarded a save the credential check held back: the line said "Saved and sent." while
  // the service had the version before, and the focus fell to the window.
  it('a held-back save discarded: the save line says the service keeps the version before; the focus stays in the check', async () => {
    const { host, page } = await apps.open();
    const description = `${COMPLETE_DESCRIPTION}\n\nThe export returns every user's invoices.\n`;
    const draft = await savedDraft(host, {
      title: 'Invoices of every user in the export',
      asset: 'https://*.example.com/export',
      description,
    });
    await host.settled();
    await host.engine.saveDraft(draft.reportId, {
      title: 'Invoices of every user in the export',
      asset: 'https://*.example.com/export',
      description: `${description}\nGET /api/v2/export HTTP/1.1\nAuthorization: Bearer ${fakeJwt()}\n`,
      cvss_vector: '',
    });
    await host.settled();
    await goTo(page, `#/reports/${draft.reportId}`);
    const held = page.getByRole('list', { name: 'Held back by this check', exact: true });
    await held.getByRole('button', { name: 'Discard', exact: true }).click();
    await held.waitFor({ state: 'detached' });
    // The token is still in the text, so the next change is held too (a walk typed on after
    // "until your next change" and was held at once).
    await expectText(
      page.locator('.save-state'),
      /^Saved on this computer, not sent: the service keeps the version before until each possible credential below is redacted or kept\.$/,
    );
    // The finding still waits: the focus stays in the credentials check (a walk saw it go to the
    // report's title, the pane scrolled to its top).
    const check = page.getByRole('heading', { name: 'Credentials check', level: 2 });
    await until("the focus on the credentials check's heading", () => hasFocus(check));
    // The list beside it reads the queue again: nothing of the report waits any more (a walk saw
    // "Unsent" and "Needs your action" stay on its row).
    const row = page
      .getByRole('list', { name: 'Reports', exact: true })
      .getByRole('listitem')
      .filter({ hasText: 'Invoices of every user in the export' });
    await until(
      'the row without "Unsent" and "Needs your action"',
      async () => !/Unsent|Needs your action/u.test(await row.innerText()),
    );
    // What the service has is the version before: the typed request stayed on this computer.
    const server = await host.sandbox.api<{ description: string }>(
      'GET',
      `/api/reports/${draft.reportId}`,
      { token: host.key },
    );
    expect(server.body.description).toBe(description);
  });

  it('valid-shaped but unknown input is refused: a draft for a program that does not exist, an unknown unsent change', async () => {
    const { host, page } = await apps.open();
    await page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();
    await expect(host.engine.createDraft('no-such-program')).rejects.toThrow(
      /no program “no-such-program”/,
    );
    expect((await host.engine.listReports({})).items).toEqual([]);
    expect((await host.engine.getStatus()).needsAction).toBe(0);
    await expect(host.engine.discardEntry(987_654)).rejects.toThrow(/no unsent change #987654/);
    await expect(host.engine.retryEntry(987_654)).rejects.toThrow(/no unsent change #987654/);
    // A program that exists but is not mirrored yet is asked for, and the draft starts.
    const draft = await host.engine.createDraft(host.programs.open.id);
    expect(draft.reportId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('the Inbox panel closes with Escape, a click outside and a screen change, and leaves "Sync now" uncovered', async () => {
    const { page } = await apps.open();
    await page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();
    const button = page.getByRole('banner').getByRole('button', { name: /^Inbox/ });
    const panel = page.getByRole('region', { name: 'Inbox', exact: true });
    const syncNow = page.getByRole('button', { name: 'Sync now', exact: true });

    await button.click();
    await panel.waitFor();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    // "Sync now" is not under the panel: the point at its centre is the button itself.
    const box = await syncNow.boundingBox();
    const area = await panel.boundingBox();
    if (!box || !area) throw new Error('both are drawn');
    const overlap =
      box.x < area.x + area.width &&
      area.x < box.x + box.width &&
      box.y < area.y + area.height &&
      area.y < box.y + box.height;
    expect(
      overlap,
      `"Sync now" ${JSON.stringify(box)} under the panel ${JSON.stringify(area)}`,
    ).toBe(false);
    expect(
      await page.evaluate(
        ([x, y]) => {
          const g = globalThis as unknown as {
            document: { elementFromPoint(x: number, y: number): { textContent: string } | null };
          };
          return g.document.elementFromPoint(x as number, y as number)?.textContent ?? '';
        },
        [box.x + box.width / 2, box.y + box.height / 2],
      ),
    ).toBe('Sync now');

    // Escape closes it and gives the focus back to the button.
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(await hasFocus(button)).toBe(true);

    // A click outside closes it.
    await button.click();
    await panel.waitFor();
    await page.getByRole('heading', { name: 'Programs', exact: true }).click();
    await panel.waitFor({ state: 'detached' });

    // Another screen (a keyboard shortcut, nothing clicked) closes it.
    await button.click();
    await panel.waitFor();
    await page.keyboard.press('ControlOrMeta+2');
    await page.getByRole('heading', { name: 'Reports', exact: true }).waitFor();
    await panel.waitFor({ state: 'detached' });

    // "Sync now" works with the panel open: one click syncs and closes it.
    await button.click();
    await panel.waitFor();
    await syncNow.click();
    await panel.waitFor({ state: 'detached' });
  });

  it('programs: search by name, "Clear filters" undoes search and filters; two Tabs from the heading to the first program', async () => {
    const { page } = await apps.open();
    const heading = page.getByRole('heading', { name: 'Programs', exact: true });
    await heading.waitFor();
    const list = page.getByRole('list', { name: 'Programs', exact: true });
    await list.getByRole('link', { name: 'Acme Web Platform', exact: true }).waitFor();
    const clear = page.getByRole('button', { name: 'Clear filters', exact: true });
    expect(await clear.count()).toBe(0);

    // From the heading, the search then the first program.
    // Coming to the screen puts the focus on its heading (as any move between screens does).
    await nav(page, 'Reports').click();
    await page.getByRole('heading', { name: 'Reports', exact: true }).waitFor();
    await nav(page, 'Programs').click();
    await list.getByRole('link', { name: 'Acme Web Platform', exact: true }).waitFor();
    await until('focus on the heading', () => hasFocus(heading));
    const tabs: string[] = [];
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Tab');
      const now = await page.evaluate(() => {
        const el = (
          globalThis as unknown as {
            document: {
              activeElement: {
                tagName: string;
                textContent: string | null;
                getAttribute(n: string): string | null;
                closest(s: string): unknown;
              } | null;
            };
          }
        ).document.activeElement;
        return {
          what: `${el?.tagName ?? ''} ${el?.getAttribute('aria-label') ?? el?.textContent ?? ''}`,
          inList: !!el?.closest('ul[aria-label="Programs"]'),
        };
      });
      tabs.push(now.what);
      if (now.inList) break;
    }
    expect(tabs).toHaveLength(2);
    expect(tabs[0]).toBe('INPUT Search programs');

    // Any case, part of a word, the company name too.
    const search = page.getByRole('searchbox', { name: 'Search programs', exact: true });
    await search.fill('INITECH');
    await until('only Initech', async () => {
      const names = await list.getByRole('link').allInnerTexts();
      return names.length > 0 && names.every((n) => /Initech/.test(n));
    });
    await clear.waitFor();
    // The filters count within the search.
    const assets = page.getByRole('group', { name: 'Asset type', exact: true });
    const web = assets.getByRole('checkbox', { name: /^Web \(\d+\)$/ });
    const mobile = assets.getByRole('checkbox', { name: /^Mobile \(\d+\)$/ });
    await mobile.check();
    await search.fill('no program is called this');
    await expectText(page.getByText(/No programs match this search and these filters\./), /match/);
    await assets.getByRole('checkbox', { name: 'Web (0)', exact: true }).waitFor();
    expect(await web.count()).toBe(1);

    await clear.click();
    await list.getByRole('link', { name: 'Acme Web Platform', exact: true }).waitFor();
    expect(await search.inputValue()).toBe('');
    expect(await mobile.isChecked()).toBe(false);
    expect(await clear.count()).toBe(0);
  });

  it('a submitted report shows its id, copied with one button', async () => {
    const { host, page } = await apps.open();
    const draft = await savedDraft(host, {
      title: 'CSRF on the e-mail change',
      asset: 'https://app.example.com/settings',
    });
    await host.engine.submit(draft.reportId);
    await host.settled();
    await goTo(page, `#/reports/${draft.reportId}`);
    await page.getByRole('heading', { name: 'CSRF on the e-mail change', exact: true }).waitFor();
    const id = page.getByRole('textbox', { name: 'Report ID', exact: true });
    expect(await id.inputValue()).toBe(draft.reportId);
    expect(await id.getAttribute('readonly')).not.toBeNull();
    await page.getByRole('button', { name: 'Copy report ID', exact: true }).click();
    await expectText(
      page.getByRole('status').filter({ hasText: 'Report ID' }),
      'Report ID copied.',
    );
    // What was copied is the id: pasted into the reply box.
    const reply = page.getByRole('textbox', { name: 'Reply', exact: true });
    await reply.focus();
    await page.keyboard.press('ControlOrMeta+V');
    expect(await reply.inputValue()).toBe(draft.reportId);
    // The way back to its program, as the draft had it (a walk missed it once submitted).
    const program = (await host.engine.getReport(draft.reportId))?.report;
    await page.getByRole('link', { name: `← ${program?.program_name}`, exact: true }).click();
    await page.getByRole('heading', { name: program?.program_name, level: 1 }).waitFor();
    expect(page.url()).toMatch(new RegExp(`#/programs/${program?.program_id}$`));
  });

  it('"Discard draft" says what stays on the service, then withdraws the draft there', async () => {
    const { host, page } = await apps.open();
    const draft = await host.engine.createDraft(host.programs.open.id);
    await goTo(page, `#/reports/${draft.reportId}`);
    const title = page.getByRole('textbox', { name: 'Title', exact: true });
    await title.waitFor();
    await title.fill('Not a bug after all');
    const discard = page.getByRole('button', { name: 'Discard draft', exact: true });
    await discard.click();
    const dialog = page.getByRole('alertdialog', { name: 'Discard this draft?', exact: true });
    await expectText(dialog, /stays on the service as a withdrawn report/);
    // Cancel keeps the draft, and the focus goes back to the button.
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await hasFocus(discard)).toBe(true);

    await discard.click();
    await dialog.getByRole('button', { name: 'Discard', exact: true }).click();
    await host.settled();
    await until('withdrawn on the service', async () => {
      const server = await host.sandbox.api<{ status: string; title: string }>(
        'GET',
        `/api/reports/${draft.reportId}`,
        { token: host.key },
      );
      return server.body.status === 'withdrawn' && server.body.title === 'Not a bug after all';
    });
    await expectText(page.locator('.report-status'), /Withdrawn/, 15_000);
    expect(await page.getByRole('textbox', { name: 'Title', exact: true }).count()).toBe(0);
  });

  // A walk saw the hints of empty sections ("What should happen.") stay where first drawn as the
  // pane scrolled, over other controls, and stretch the window below its bottom edge.
  it('the hints of empty sections scroll with the description: the window itself never scrolls', async () => {
    const { host, page } = await apps.open();
    const { reportId } = await savedDraft(host, {
      title: 'InfluxDB authentication bypass',
      description: [
        '## Steps to reproduce',
        '',
        reportText('vulhub--influxdb-CVE-2019-20933.md').trim(),
        '',
        '## Expected behavior',
        '',
        '## Actual behavior',
        '',
        '## Security impact',
        '',
      ].join('\n'),
    });
    await goTo(page, `#/reports/${reportId}`);
    const hints = page.locator('.description-editor p.section-hint');
    await until('the empty sections show their hints', async () => (await hints.count()) >= 3);
    const overflow = (): Promise<number> =>
      page.evaluate(() => {
        const g = globalThis as unknown as {
          document: { documentElement: { scrollHeight: number } };
          innerHeight: number;
        };
        return g.document.documentElement.scrollHeight - g.innerHeight;
      });
    for (const top of [0, 400, 100_000]) {
      await page.locator('.workspace-detail').evaluate((pane, y) => {
        (pane as unknown as { scrollTop: number }).scrollTop = y;
      }, top);
      await page.waitForTimeout(50);
      expect(await overflow(), `the window overflows with the pane at ${top}`).toBeLessThanOrEqual(
        0,
      );
    }
  });

  it('the editor draws tables with borders and code blocks on their background; a JWT wraps in the pane and in its code block', async () => {
    const { host, page } = await apps.open();
    const draft = await host.engine.createDraft(host.programs.open.id);
    const jwt = fakeJwt();
    await host.engine.saveDraft(draft.reportId, {
      title: 'Session token in the page source',
      asset: 'https://app.example.com/',
      description: [
        COMPLETE_DESCRIPTION,
        '',
        '| id | name |',
        '| --- | --- |',
        '| 1 | admin |',
        '',
        '```sh',
        "curl -s 'https://app.example.com/api/users?id=1' -H 'Cookie: session=abc'",
        '```',
        '',
        '```http',
        'GET /api/v2/users/1337/export HTTP/1.1',
        'Host: api.example.com',
        `Authorization: Bearer ${jwt}`,
        '```',
        '',
        `token${jwt.replace(/[^A-Za-z0-9]/g, '')}${'A'.repeat(200)}`,
      ].join('\n'),
      cvss_vector: '',
    });
    await goTo(page, `#/reports/${draft.reportId}`);
    const editor = page.getByRole('textbox', { name: 'Description', exact: true });
    await editor.locator('table').waitFor();
    const looks = await editor.evaluate((el) => {
      type Styled = {
        querySelector(s: string): Styled | null;
        scrollWidth: number;
        clientWidth: number;
      };
      const g = globalThis as unknown as {
        getComputedStyle(e: unknown): {
          borderTopStyle: string;
          backgroundColor: string;
          lineHeight: string;
          fontSize: string;
        };
      };
      const root = el as unknown as Styled;
      const cell = root.querySelector('td') as
        (Styled & { getBoundingClientRect(): { height: number } }) | null;
      const cellText = cell?.querySelector('p') ?? cell;
      const cellStyle = cellText ? g.getComputedStyle(cellText) : null;
      const pre = root.querySelector('pre');
      // The request's code block: its token line wraps inside the box (ProseMirror's own sheet
      // wraps code too), rather than running past its right edge.
      const request = Array.from(
        (
          el as unknown as {
            querySelectorAll(s: string): ArrayLike<Styled & { textContent: string }>;
          }
        ).querySelectorAll('pre'),
      ).find((p) => p.textContent.includes('Authorization: Bearer'));
      return {
        cellBorder: cell ? g.getComputedStyle(cell).borderTopStyle : 'none',
        preBackground: pre ? g.getComputedStyle(pre).backgroundColor : '',
        overflow: root.scrollWidth - root.clientWidth,
        cellHeight: cell?.getBoundingClientRect().height ?? 0,
        cellLine:
          parseFloat(cellStyle?.lineHeight ?? '') || 1.2 * parseFloat(cellStyle?.fontSize ?? '16'),
        requestOverflow: request ? request.scrollWidth - request.clientWidth : Number.NaN,
      };
    });
    expect(looks.cellBorder).toBe('solid');
    // A one-line row is a line tall, with the cell's padding: not a paragraph's margins too.
    expect(looks.cellHeight).toBeGreaterThan(0);
    expect(looks.cellHeight).toBeLessThan(looks.cellLine + 16);
    expect(looks.preBackground).not.toMatch(/^(rgba\(0, 0, 0, 0\)|transparent|)$/);
    expect(looks.overflow).toBeLessThanOrEqual(0);
    expect(looks.requestOverflow).toBeLessThanOrEqual(0);
    // The pane around it does not scroll sideways either.
    const sideways = await page.evaluate(() => {
      const g = globalThis as unknown as {
        document: { querySelector(s: string): { scrollWidth: number; clientWidth: number } | null };
      };
      const pane =
        g.document.querySelector('.workspace-detail') ?? g.document.querySelector('main');
      return pane ? pane.scrollWidth - pane.clientWidth : 0;
    });
    expect(sideways).toBeLessThanOrEqual(0);
  });
});
