import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useAppPerTest } from './support/app';
import { goTo, nav, until } from './support/ui';
import type { AppHost } from '../app/host';

/**
 * What a researcher's day through the built app found (issue 22), one test per defect: links and
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
});
