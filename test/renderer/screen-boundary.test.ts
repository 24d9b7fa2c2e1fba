import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { openEditorHarness } from './editor-harness/build';

/**
 * The screens' error boundary in Chromium: a screen that throws while it renders shows
 * what failed in its own place, and the navigation beside it still works. The app mounts one
 * around every screen (App.tsx) and one around the open report beside the reports list; the built
 * app has no screen left that throws (walkthrough.test.ts), so a harness mounts one that does.
 */
let browser: Browser;
let page: Page;
let pageErrors: string[];

beforeAll(async () => {
  ({ browser, page, pageErrors } = await openEditorHarness('boundary'));
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('a screen that fails to render', () => {
  it('says what failed; the navigation and the other screens stay usable', async () => {
    const failed = page.getByRole('heading', { name: 'The program could not be shown' });
    await failed.waitFor();
    const region = page.getByRole('region', { name: 'The program could not be shown' });
    expect(await region.innerText()).toContain(
      "What failed: Cannot read properties of undefined (reading 'rewards')",
    );
    // "Try again" renders the screen again (it fails again here, and says so again).
    await region.getByRole('button', { name: 'Try again', exact: true }).click();
    await failed.waitFor();

    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'Fine', exact: true }).click();
    await page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();
    expect(await failed.count()).toBe(0);
    await nav.getByRole('button', { name: 'Broken', exact: true }).click();
    await failed.waitFor();
    expect(pageErrors).toEqual([]);
  });
});
