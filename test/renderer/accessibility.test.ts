import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { savedDraft } from '../support/drafts';
import { useAppPerTest } from './support/app';
import { expectText, goTo, hasFocus, themeOf, until } from './support/ui';

const axeSource = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core on the page as it is now: the serious and critical findings, each with where it is.
 * The script is evaluated by the test driver, outside the page's CSP (which forbids inline code).
 */
async function seriousFindings(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } })
      .axe;
    return (await axe.run()).violations;
  });
  return (violations as AxeViolation[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id} (${v.help}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
}

/** Every screen of the app, in both themes, with a world that fills each one. */
describe('renderer: accessibility (axe-core)', () => {
  const apps = useAppPerTest('accessibility');

  it('the status bar tells screen readers about syncing once per change, not every counter tick', async () => {
    const { page, host } = await apps.open();
    const live = page.locator('[aria-live="polite"][aria-atomic="true"]');
    await page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();
    expect(
      await page.getByRole('status', { name: 'Connection', exact: true }).getAttribute('aria-live'),
    ).toBe('off');
    await page.getByRole('button', { name: 'Sync now', exact: true }).click();
    await until('the sync is announced', async () => /^Synced at /.test(await live.innerText()));
    // A sync may still be running (the scheduler's, after the one above): it keeps the button
    // disabled, and under the faults below its retries last about 15 s. Let it finish first.
    const syncNow = page.getByRole('button', { name: 'Sync now', exact: true });
    await until('no sync is running', () => syncNow.isEnabled(), 30_000);
    await host.sandbox.faults({ rate: 1, reset_connection: true });
    // Pressed from the keyboard: while its sync runs the button takes no press, but keeps the
    // focus (a disabled button dropped it to the page), and says why.
    await syncNow.focus();
    const underWay = async (): Promise<boolean> =>
      (await syncNow.getAttribute('aria-disabled')) === 'true';
    // The scheduler's own sync may start between the check above and the key (a press during a
    // sync does nothing), and end, online, before a look sees it: pressed again then.
    for (let press = 1; ; press++) {
      await page.keyboard.press('Enter');
      const started = await until('the sync under way', underWay, 3_000).then(
        () => true,
        (e: unknown) => (press < 3 ? false : Promise.reject(e)),
      );
      if (started) break;
    }
    expect(await hasFocus(syncNow)).toBe(true);
    const why = await syncNow.getAttribute('aria-describedby');
    await expectText(page.locator(`[id="${why}"]`), /^Trying to reach the service$/);
    // The dimmed button says it on hover too (a walk took it for disabled for no reason).
    expect(await syncNow.getAttribute('title')).toBe('Trying to reach the service');
    await until(
      'offline is announced',
      async () => /^Offline\. Your changes are kept/.test(await live.innerText()),
      30_000,
    );
    await host.sandbox.clearFaults();
  }, 60_000);

  it.each(['light', 'dark'] as const)(
    'no serious or critical finding on any screen (%s theme)',
    async (theme) => {
      const { page, host } = await apps.open({ signedIn: false, colorScheme: theme });
      const found: Record<string, string[]> = {};
      const check = async (screen: string) => {
        await page.waitForTimeout(200);
        found[screen] = await seriousFindings(page);
      };
      // The first-run screen has no theme toggle: the theme follows the system's colour scheme,
      // set on <html> by an effect after the first render (CI once read it before that).
      await page.getByRole('heading', { name: 'Welcome', exact: true }).waitFor();
      await until(`the ${theme} theme is applied`, async () => (await themeOf(page)) === theme);
      await check('first run');

      await page.getByRole('textbox', { name: 'Server URL', exact: true }).fill(host.sandbox.url);
      await page.getByRole('textbox', { name: 'API key', exact: true }).fill(host.key);
      await page.getByRole('button', { name: 'Connect', exact: true }).click();
      await page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();
      const e = host.engine;
      const playground = 'sandbox-playground';
      const draft = await savedDraft(
        host,
        {
          title: 'Stored XSS in the profile name',
          asset: 'https://playground.sandbox.test/profile',
          cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N',
        },
        playground,
      );
      const submitted = await savedDraft(
        host,
        { title: 'IDOR on invoices', asset: 'https://playground.sandbox.test/invoices' },
        playground,
      );
      const evidence = await host.file('invoice-poc.txt', 'GET /invoices/2 as user 1\n');
      await e.attachFiles(submitted.reportId, [{ file: await host.tokenFor(evidence) }]);
      await host.settled();
      await e.submit(submitted.reportId);
      await host.settled();
      await host.sandbox.askForInformation(submitted.reportId, 'Which account ids did you use?');
      await e.syncNow();
      await page.getByRole('button', { name: 'Sync now', exact: true }).click();
      await check('programs');

      await goTo(page, '#/programs/sandbox-playground');
      await page.getByRole('region', { name: 'Policy', exact: true }).waitFor();
      await check('program page');

      // The two-pane workspace: the list with the hint, then each kind of report beside it.
      await goTo(page, '#/reports');
      await page.getByRole('list', { name: 'Reports', exact: true }).waitFor();
      await page.getByRole('region', { name: 'Open report', exact: true }).waitFor();
      await page.getByRole('separator', { name: 'Resize the reports list' }).waitFor();
      await check('reports (two panes, none open)');
      await page.keyboard.press('ControlOrMeta+n');
      await page
        .getByRole('dialog', { name: 'New report', exact: true })
        .getByRole('list', { name: 'Open programs', exact: true })
        .waitFor();
      await check('new report dialog');
      await page.keyboard.press('Escape');

      await goTo(page, `#/reports/${draft.reportId}`);
      await page.getByRole('textbox', { name: 'Description', exact: true }).waitFor();
      await check('report editor (beside the list)');
      await page.getByRole('button', { name: 'Check and submit', exact: true }).click();
      await page.getByRole('dialog', { name: 'Submit checklist', exact: true }).waitFor();
      await check('submit checklist');
      await page.keyboard.press('Escape');

      await goTo(page, `#/reports/${submitted.reportId}`);
      await page.getByRole('region', { name: 'Messages', exact: true }).waitFor();
      await until(
        'the question to show',
        async () => (await page.getByText('Which account ids did you use?').count()) > 0,
      );
      await check('report page (beside the list)');
      // A narrow window: the open report alone.
      await page.setViewportSize({ width: 820, height: 800 });
      await page.getByRole('link', { name: '← All reports', exact: true }).waitFor();
      await check('report page (narrow window)');
      await page.setViewportSize({ width: 1280, height: 800 });

      await goTo(page, '#/account');
      await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
      await check('account');

      await goTo(page, '#/payouts');
      await page.getByRole('heading', { name: 'Payouts', exact: true, level: 1 }).waitFor();
      await check('payouts');

      await page.getByRole('button', { name: /^Inbox/ }).click();
      await page.getByRole('region', { name: 'Inbox', exact: true }).waitFor();
      await check('inbox');

      expect(found).toEqual(Object.fromEntries(Object.keys(found).map((screen) => [screen, []])));
    },
    120_000,
  );
});
