import { describe, it } from 'vitest';
import { useAppPerTest } from './support/app';
import { nav } from './support/ui';

/** The app as a place researchers work in: it opens where they left it. */
describe('renderer: workspace', () => {
  const apps = useAppPerTest('workspace');

  it('starts again on the screen it was closed on', async () => {
    const { page } = await apps.open();
    await page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();
    await nav(page, 'Account').click();
    await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
    // A new start loads the window's page without a location hash, with the same storage.
    const url = page.url().replace(/#.*$/u, '');
    await page.goto(url, { waitUntil: 'load' });
    await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
  });
});
