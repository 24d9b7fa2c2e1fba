import { describe, it } from 'vitest';
import { useAppPerTest } from './support/app';
import { caretAtEndOf, connection, expectText, goTo, until } from './support/ui';

/**
 * A draft whose save the credential check holds back: the line under its title says it waits for
 * the researcher, offline as online. It said "sent when the connection returns", which the
 * connection's return never did.
 */
describe('renderer: the save line of a draft held back by the credential check', () => {
  const apps = useAppPerTest('held-save-line');

  it('says it is held back, not that the connection will send it', async () => {
    const { host, page } = await apps.open({
      beforeWindow: async (h) => {
        await h.engine.syncNow();
      },
    });
    await goTo(page, `#/programs/${host.programs.open.id}`);
    await page.getByRole('button', { name: 'New report', exact: true }).click();
    const description = page.getByRole('textbox', { name: 'Description', exact: true });
    await description.waitFor();
    const saveLine = page.locator('.save-state');
    await host.sandbox.faults({ rate: 1, reset_connection: true, seed: 7 });
    try {
      await caretAtEndOf(
        description.getByRole('heading', { name: 'Steps to reproduce', exact: true }),
        'Steps to reproduce',
      );
      await page.keyboard.press('ArrowDown');
      await page.keyboard.type(
        'Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
      );
      await page.getByRole('button', { name: 'Sync now', exact: true }).click();
      await expectText(connection(page), /Offline/, 30_000);
      await page
        .getByRole('region', { name: 'Credentials check', exact: true })
        .getByText(/possible credential found/)
        .waitFor({ timeout: 20_000 });
      await expectText(
        saveLine,
        /^Saved on this computer; held back until each possible credential below is redacted or kept\.$/,
        20_000,
      );
    } finally {
      await host.sandbox.clearFaults();
    }
    await page.getByRole('button', { name: 'Sync now', exact: true }).click();
    await until('online again', async () => /Online/.test(await connection(page).innerText()));
    await expectText(saveLine, /held back until each possible credential below/, 20_000);
  }, 120_000);
});
