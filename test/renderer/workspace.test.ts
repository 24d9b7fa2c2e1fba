import { afterAll, afterEach, beforeAll, describe, it } from 'vitest';
import { AppHost } from '../app/host';
import { keepFailureShot, openApp, startSuite, type AppPage, type Suite } from './support/app';
import { nav } from './support/ui';

/** The app as a place researchers work in: it opens where they left it. */
describe('renderer: workspace', () => {
  let suite: Suite;
  let host: AppHost | undefined;
  let app: AppPage | undefined;

  beforeAll(async () => {
    suite = await startSuite();
  }, 240_000);
  afterEach(async (ctx) => {
    await keepFailureShot(app?.page, 'workspace', ctx.task);
    await app?.close();
    await host?.close();
    app = undefined;
    host = undefined;
  });
  afterAll(async () => {
    await suite?.close();
  });

  it('starts again on the screen it was closed on', async () => {
    host = await AppHost.open();
    await host.signIn();
    app = await openApp(suite, host);
    const { page } = app;
    await page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();
    await nav(page, 'Account').click();
    await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
    // A new start loads the window's page without a location hash, with the same storage.
    const url = page.url().replace(/#.*$/u, '');
    await page.goto(url, { waitUntil: 'load' });
    await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
  });
});
