import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/shared/api';
import type { Bridge, BridgeError } from '../../src/shared/bridge/contract';
import { KeychainSecretStore } from '../../src/engine/secrets';
import { readKey } from '../support/sandbox-client';
import { useAppPerTest, type OpenOptions } from './support/app';
import { openReport, submittedOnServer } from './support/reports';
import {
  caretAtEndOf,
  connection,
  expectNoText,
  expectText,
  goTo,
  hasFocus,
  nav,
  reasonFor,
  themeOf,
  until,
} from './support/ui';
import { COMPLETE_DESCRIPTION as COMPLETE } from '../support/fixtures';

/**
 * Each screen of docs/ui-names.md, one behaviour per test, through the UI only (roles and names),
 * each against its own sandbox, engine and page.
 */
describe('renderer: screens', () => {
  const apps = useAppPerTest('screens');
  const open = (options: OpenOptions = {}) => apps.open(options);

  it('first run: field errors are named after their field; the key is never kept in the page', async () => {
    const { host, page } = await open({ signedIn: false });
    await page.getByRole('heading', { name: 'Welcome', exact: true }).waitFor();
    const url = page.getByRole('textbox', { name: 'Server URL', exact: true });
    const key = page.getByRole('textbox', { name: 'API key', exact: true });
    expect(await key.getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expectText(page.getByText(/^Server URL: /), /Server URL: \S/);
    await expectText(page.getByText(/^API key: /), /API key: \S/);
    expect(await url.getAttribute('aria-invalid')).toBe('true');

    // A well-formed key the server does not know: the server says 401, the key field says why.
    await url.fill(host.sandbox.url);
    await key.fill(`sbx_${'A'.repeat(43)}`);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await expectText(page.getByText(/^API key: /), /API key: The API key is not accepted/);
    expect(await key.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText(/^Server URL: /).count()).toBe(0);
    // The same refusal as the page's bridge gets it through the built main and preload: data
    // with the engine's code and field, not a message to pick apart (no IPC prefix, no "apiKey:").
    const refused = await page.evaluate(
      (serverUrl) =>
        (globalThis as unknown as { bountyDesk: Bridge }).bountyDesk
          .connect({ serverUrl, apiKey: `sbx_${'A'.repeat(43)}` })
          .then(
            () => null,
            (e: unknown) => e,
          ),
      host.sandbox.url,
    );
    expect(refused).toMatchObject({ name: 'SignInError', code: 'sign_in_failed', field: 'apiKey' });
    expect((refused as BridgeError).message).toMatch(/^The API key is not accepted/);

    await key.fill(host.key);
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();
    // A draft field the engine refuses (a program the server does not know) arrives as data too.
    const noProgram = await page.evaluate(() =>
      (globalThis as unknown as { bountyDesk: Bridge }).bountyDesk
        .createDraft('no-such-program')
        .then(
          () => null,
          (e: unknown) => e,
        ),
    );
    expect(noProgram).toMatchObject({ code: 'invalid_input', field: 'program_id' });
    expect((noProgram as BridgeError).message).toMatch(/^there is no program “no-such-program”/);
    const connect = host.calls.filter((c) => c.name === 'connect');
    expect(connect.at(-1)?.args).toEqual([{ serverUrl: host.sandbox.url, apiKey: '<key>' }]);
    const html = await page.content();
    const stored = await page.evaluate(() => {
      const g = globalThis as unknown as {
        localStorage: {
          length: number;
          key(i: number): string | null;
          getItem(k: string): string | null;
        };
        sessionStorage: {
          length: number;
          key(i: number): string | null;
          getItem(k: string): string | null;
        };
      };
      const all: string[] = [];
      for (const s of [g.localStorage, g.sessionStorage]) {
        for (let i = 0; i < s.length; i++) all.push(`${s.key(i)}=${s.getItem(s.key(i) ?? '')}`);
      }
      return all.join('\n');
    });
    expect(html.includes(host.key), 'API key in the DOM').toBe(false);
    expect(stored.includes(host.key), 'API key in web storage').toBe(false);
  });

  it('programs: filters with counts narrow the list; a closed program says why "New report" is off', async () => {
    const { page } = await open();
    await page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();
    const list = page.getByRole('list', { name: 'Programs', exact: true });
    await list.getByRole('link', { name: 'Acme Web Platform', exact: true }).waitFor();
    for (const group of ['Asset type', 'Top reward', 'Last update', 'Intake']) {
      expect(await page.getByRole('group', { name: group, exact: true }).count()).toBe(1);
    }
    const assets = page.getByRole('group', { name: 'Asset type', exact: true });
    const mobile = assets.getByRole('checkbox', { name: /^Mobile \(\d+\)$/ });
    expect(await mobile.count()).toBe(1);
    await mobile.check();
    await until('only programs with mobile assets', async () => {
      const names = await list.getByRole('link').allInnerTexts();
      return names.length > 0 && !names.some((n) => n.includes('Acme Web Platform'));
    });
    const names = (await list.getByRole('link').allInnerTexts()).join('\n');
    expect(names).toMatch(/Initech Mobile Apps/);
    await mobile.uncheck();
    await list.getByRole('link', { name: 'Acme Web Platform', exact: true }).waitFor();
    const pagination = page.getByRole('navigation', { name: 'Pagination', exact: true });
    await expectText(pagination, /Page 1 of \d+/);

    await list.getByRole('link', { name: /^Vandelay/ }).click();
    const newReport = page.getByRole('button', { name: 'New report', exact: true });
    await newReport.waitFor();
    expect(await newReport.isDisabled()).toBe(true);
    await expectText(await reasonFor(page, newReport), /clos/i);
    await expectText(list.or(page.getByRole('main')), /Intake closed/);
  });

  it('reports: search and the status filter narrow the list; rows carry their badges', async () => {
    const { host, page } = await open();
    for (const title of ['Stored XSS in comments', 'SQL injection in search', 'SSRF in webhooks']) {
      const draft = await host.engine.createDraft(host.programs.open.id);
      await host.engine.saveDraft(draft.reportId, {
        title,
        asset: 'https://app.example.com/',
        description: COMPLETE,
        cvss_vector: '',
      });
    }
    await nav(page, 'Reports').click();
    const list = page.getByRole('list', { name: 'Reports', exact: true });
    await list.getByRole('link', { name: /^SSRF in webhooks/ }).waitFor();
    expect(await list.getByRole('link').count()).toBe(3);
    await page.getByRole('searchbox', { name: 'Search reports', exact: true }).fill('injection');
    await until('the search applied', async () => (await list.getByRole('link').count()) === 1);
    await expectText(list, /SQL injection in search/);
    await page.getByRole('searchbox', { name: 'Search reports', exact: true }).fill('');
    await until('the search cleared', async () => (await list.getByRole('link').count()) === 3);
    const status = page.getByRole('group', { name: 'Status', exact: true });
    await status
      .getByRole('checkbox', { name: /accepted/i })
      .first()
      .check();
    await until('no accepted report', async () => (await list.getByRole('link').count()) === 0);
  });

  it('account: website steps go to openWebsite, never opened; "Sign out" removes the key', async () => {
    const { host, page } = await open({
      account: { email_verified: true, payments_status: 'ready' },
    });
    await nav(page, 'Account').click();
    await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
    const main = page.getByRole('main');
    await expectText(main, /Verified/);
    await expectText(main, /Key scope: write/);
    await expectText(main, /Active reports 0\/5/);
    await expectText(main, new RegExp(host.sandbox.url.replace(/[.:/]/g, '\\$&')));
    const pages = {
      'Sign up': 'sign-up',
      'Verify e-mail': 'verify-email',
      'Payment onboarding': 'payment-onboarding',
      'Create API keys': 'api-keys',
    };
    for (const [name, website] of Object.entries(pages)) {
      await page.getByRole('link', { name, exact: true }).click();
      await until(`openWebsite(${website})`, () => host.websites.includes(website));
    }
    expect(apps.current?.app.guard.popups).toEqual([]);
    expect(apps.current?.app.guard.navigations.every((u) => u.startsWith(host.rendererUrl))).toBe(
      true,
    );

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('heading', { name: 'Welcome', exact: true }).waitFor();
    expect(await new KeychainSecretStore().get(host.sandbox.url)).toBeNull();
  });

  it('errors: a 500 shows an alert with its title, advice and request id', async () => {
    const { host, page } = await open();
    await page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();
    await until('the first sync', async () => (await host.engine.getStatus()).lastSyncAt !== null);
    await host.sandbox.faults({ rate: 1, statuses: [500] });
    await page.getByRole('button', { name: 'Sync now', exact: true }).click();
    const alert = page.getByRole('alert');
    await expectText(alert, /Request ID: \S+/, 15_000);
    await host.sandbox.clearFaults();
  });

  it('theme: "Toggle theme" flips <html data-theme> and the choice survives a reload', async () => {
    const { page } = await open();
    await page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();
    expect(await themeOf(page)).toBe('light');
    await page.getByRole('button', { name: 'Toggle theme', exact: true }).click();
    expect(await themeOf(page)).toBe('dark');
    await page.reload();
    await page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();
    expect(await themeOf(page)).toBe('dark');
  });

  it('keyboard: Ctrl+1/2/3 switch screens, Ctrl+F focuses the search', async () => {
    const { page } = await open();
    await page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();
    await page.keyboard.press('Control+2');
    await page.getByRole('heading', { name: 'Reports', exact: true }).waitFor();
    await page.keyboard.press('Control+f');
    await until('the search focused', () =>
      hasFocus(page.getByRole('searchbox', { name: 'Search reports', exact: true })),
    );
    await page.keyboard.press('Control+3');
    await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
    await page.keyboard.press('Control+1');
    await page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();
  });

  it('read-only key: the app says why nothing can be changed', async () => {
    const { host, page } = await open({ signedIn: false });
    await page.getByRole('textbox', { name: 'Server URL', exact: true }).fill(host.sandbox.url);
    await page.getByRole('textbox', { name: 'API key', exact: true }).fill(readKey(host.account));
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();
    await page
      .getByRole('list', { name: 'Programs', exact: true })
      .getByRole('link', { name: 'Acme Web Platform', exact: true })
      .click();
    const newReport = page.getByRole('button', { name: 'New report', exact: true });
    await newReport.waitFor();
    expect(await newReport.isDisabled()).toBe(true);
    await expectText(await reasonFor(page, newReport), /read/i);
    await nav(page, 'Account').click();
    await expectText(page.getByRole('main'), /Key scope: read/);
  });

  it('CVSS calculator: metric radio groups write the vector and show the score', async () => {
    const { host, page } = await open();
    const draft = await host.engine.createDraft(host.programs.open.id);
    await goTo(page, `#/reports/${draft.reportId}`);
    await page.getByRole('button', { name: 'CVSS calculator', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'CVSS 3.1 calculator', exact: true });
    await dialog.waitFor();
    const choose = async (metric: string, value: string | RegExp): Promise<void> => {
      await dialog
        .getByRole('radiogroup', { name: metric, exact: true })
        .getByRole('radio', { name: value })
        .first()
        .check();
    };
    await choose('Attack Vector', /^Network/);
    await choose('Attack Complexity', /^Low/);
    await choose('Privileges Required', /^None/);
    await choose('User Interaction', /^None/);
    await choose('Scope', /^Unchanged/);
    await choose('Confidentiality', /^High/);
    await choose('Integrity', /^High/);
    await choose('Availability', /^High/);
    await expectText(dialog, /Score 9\.8 \(Critical\)/);
    await dialog.getByRole('button', { name: 'Use this vector', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    const vector = page.getByRole('textbox', { name: 'CVSS vector', exact: true });
    await until(
      'the vector in the field',
      async () => (await vector.inputValue()) === 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
    );
  });

  it('conflict view: "Keep theirs" then "Save resolution" sends the server version', async () => {
    const { host, page } = await open();
    const e = host.engine;
    const draft = await e.createDraft(host.programs.open.id);
    const mine = {
      title: 'Title A',
      asset: 'https://a.example/',
      description: COMPLETE,
      cvss_vector: '',
    };
    await e.saveDraft(draft.reportId, mine);
    await host.settled();
    const server = await host.sandbox.api<Report>('GET', `/api/reports/${draft.reportId}`, {
      token: host.key,
    });
    await host.sandbox.api('PUT', `/api/reports/${draft.reportId}`, {
      token: host.key,
      body: {
        program_id: host.programs.open.id,
        ...mine,
        title: 'Title from the other device',
        revision: server.body.revision,
      },
    });
    await e.saveDraft(draft.reportId, { ...mine, title: 'Title from this device' });
    await until(
      'the conflict',
      async () => ((await e.getReport(draft.reportId))?.draft?.conflicts.length ?? 0) > 0,
    );
    await goTo(page, `#/reports/${draft.reportId}`);
    const conflicts = page.getByRole('region', { name: 'Conflicts', exact: true });
    await expectText(conflicts, /Your version[\s\S]*Title from this device/);
    await expectText(conflicts, /Server version[\s\S]*Title from the other device/);
    await conflicts.getByRole('button', { name: 'Keep theirs', exact: true }).first().click();
    await page.getByRole('button', { name: 'Save resolution', exact: true }).click();
    await until('the resolution sent', async () => {
      const view = await e.getReport(draft.reportId);
      return view?.draft?.conflicts.length === 0 && !view.draft.unsent;
    });
    const res = await host.sandbox.api<Report>('GET', `/api/reports/${draft.reportId}`, {
      token: host.key,
    });
    expect(res.body.title).toBe('Title from the other device');
    expect((await e.getReport(draft.reportId))?.draft?.content.title).toBe(
      'Title from the other device',
    );
    await expectNoText(page.getByRole('main'), /Your version/);
  });

  it('withdraw: the alert dialog asks first; "Withdraw" withdraws', async () => {
    const { host, page } = await open();
    const id = await submittedOnServer(
      host,
      'Report to withdraw',
      'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N',
    );
    await openReport(page, id, 'Report to withdraw');
    await page.getByRole('button', { name: 'Withdraw report', exact: true }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Withdraw this report?', exact: true });
    await confirm.getByRole('button', { name: 'Cancel', exact: true }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(host.calls.some((c) => c.name === 'withdraw')).toBe(false);
    await page.getByRole('button', { name: 'Withdraw report', exact: true }).click();
    await confirm.getByRole('button', { name: 'Withdraw', exact: true }).click();
    await until('withdrawn on the server', async () => {
      const res = await host.sandbox.api<Report>('GET', `/api/reports/${id}`, { token: host.key });
      return res.body.status === 'withdrawn';
    });
    await page.getByRole('button', { name: 'Sync now', exact: true }).click();
    await expectText(page.getByRole('main'), /Withdrawn/);
  });

  it('a refused submit is parked: "Unsent changes" offers Retry and Discard, the list says it needs action', async () => {
    const { host, page } = await open();
    const program = host.programs.open.id;
    const draft = await host.engine.createDraft(program);
    await host.engine.saveDraft(draft.reportId, {
      title: 'Parked submit',
      asset: 'https://a.example/',
      description: COMPLETE,
      cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N',
    });
    await host.settled();
    await goTo(page, `#/reports/${draft.reportId}`);
    await page.getByRole('button', { name: 'Check and submit', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Submit checklist', exact: true });
    const submit = dialog.getByRole('button', { name: 'Submit report', exact: true });
    await until('"Submit report" enabled', () => submit.isEnabled());
    // The program closes between the check and the submit: the server refuses it.
    await host.sandbox.patchProgram(program, { intake: 'closed' });
    await submit.click();
    const unsent = page.getByRole('region', { name: 'Unsent changes', exact: true });
    await expectText(unsent, /does not accept reports/, 15_000);
    expect(await unsent.getByRole('button', { name: 'Retry', exact: true }).count()).toBe(1);
    // The draft stays locked, and says what it waits for: the researcher, not the service.
    await expectText(
      page.locator('#draft-locked'),
      /^The submit was stopped: retry or discard it under “Unsent changes”\.$/,
    );
    await expectText(connection(page), /\b1 needs your action\b/);
    await nav(page, 'Reports').click();
    const link = page
      .getByRole('list', { name: 'Reports', exact: true })
      .getByRole('link', { name: /^Parked submit/ });
    // The badges sit next to the row's link, in its list item.
    const row = page
      .getByRole('list', { name: 'Reports', exact: true })
      .getByRole('listitem')
      .filter({ has: page.getByRole('link', { name: /^Parked submit/ }) });
    await expectText(row, /Needs your action/);
    await link.click();
    await unsent.getByRole('button', { name: 'Discard', exact: true }).first().click();
    await expectText(connection(page), /\b0 need your action\b/);
    expect(
      (await host.engine.getReport(draft.reportId))?.outbox.some((e) => e.state === 'parked'),
    ).toBe(false);
  });

  it('editor: empty lines never reach the description as HTML; an empty section stays incomplete', async () => {
    const { host, page } = await open();
    const draft = await host.engine.createDraft(host.programs.open.id);
    await goTo(page, `#/reports/${draft.reportId}`);
    const description = page.getByRole('textbox', { name: 'Description', exact: true });
    await caretAtEndOf(
      description.getByRole('heading', { name: 'Expected behavior', exact: true }),
      'Expected behavior',
    );
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Typed after empty lines.');
    // Empty lines alone under "Actual behavior": that section has no text.
    await caretAtEndOf(
      description.getByRole('heading', { name: 'Actual behavior', exact: true }),
      'Actual behavior',
    );
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await until('the text saved', async () =>
      ((await host.engine.getReport(draft.reportId))?.draft?.content.description ?? '').includes(
        'Typed after empty lines.',
      ),
    );
    await page.waitForTimeout(1_000);
    const saved = (await host.engine.getReport(draft.reportId))?.draft?.content.description ?? '';
    expect(saved).not.toMatch(/<br\s*\/?>/i);
    // The "Actual behavior" section is still empty: the checklist must say so.
    const check = await host.engine.getChecklist(draft.reportId);
    expect(check.items.find((i) => i.id === 'incomplete_report')?.detail).toMatch(
      /Actual behavior/,
    );
  });

  it('a needs_info notification from main opens that report when clicked', async () => {
    const { host, page } = await open();
    const id = await submittedOnServer(host, 'Opened from a notification');
    await host.sandbox.act(id, { actor: 'agent', status: 'needs_info', message: 'Which OS?' });
    await page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();
    await host.engine.syncNow();
    await until('the OS notification', () =>
      host.start().notifications.some((n) => n.options.title === 'Needs your input'),
    );
    await host.clickNotification();
    await page.getByRole('heading', { name: 'Opened from a notification', exact: true }).waitFor();
    await expectText(page.getByRole('main'), /Which OS\?/);
  });

  it('menu: File › Sync now and File › New report reach the page as commands', async () => {
    const { host, page } = await open();
    await page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();
    const syncs = host.calls.filter((c) => c.name === 'syncNow').length;
    await host.clickMenu('File', 'Sync now');
    await until(
      'a sync asked by the menu',
      () => host.calls.filter((c) => c.name === 'syncNow').length > syncs,
    );
    await page
      .getByRole('list', { name: 'Programs', exact: true })
      .getByRole('link', { name: 'Acme Web Platform', exact: true })
      .click();
    await page.getByRole('button', { name: 'New report', exact: true }).waitFor();
    await host.clickMenu('File', 'New report');
    await page.getByRole('textbox', { name: 'Description', exact: true }).waitFor();
  });
});
