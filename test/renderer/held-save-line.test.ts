import { describe, expect, it } from 'vitest';
import { useAppPerTest } from './support/app';
import { savedDraft } from '../support/drafts';
import { caretAtEndOf, connection, expectText, goTo, until } from './support/ui';

/**
 * A draft whose save the credential check holds back: the line under its title says it waits for
 * the researcher, offline as online. It said "sent when the connection returns", which the
 * connection's return never did.
 */
describe('renderer: the save line of a draft', () => {
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

  it('says "waiting to be sent" until the server has the change, then "Saved and sent."', async () => {
    const { host, page } = await apps.open({
      beforeWindow: async (h) => {
        await h.engine.syncNow();
      },
    });
    const { reportId } = await savedDraft(host, { title: 'Open redirect after login' });
    await host.engine.syncNow();
    await goTo(page, `#/reports/${reportId}`);
    const saveLine = page.locator('.save-state');
    await expectText(saveLine, /^Saved and sent\.$/, 20_000);
    // Every request to the service now takes 4 s: the change is on disk long before it is sent.
    await host.sandbox.faults({ rate: 1, latency_ms: 4_000, seed: 3 });
    const seen: string[] = [];
    try {
      const title = page.getByRole('textbox', { name: 'Title', exact: true });
      await title.click();
      await page.keyboard.press('End');
      await page.keyboard.type(' on ?next=//evil.example');
      await until(
        'the change on disk',
        async () =>
          (await host.engine.getReport(reportId))?.draft?.content.title ===
          'Open redirect after login on ?next=//evil.example',
      );
      await until('the change queued', async () => (await host.engine.getStatus()).unsent > 0);
      for (let i = 0; i < 8; i++) {
        seen.push(await saveLine.innerText());
        await page.waitForTimeout(250);
      }
      expect((await host.engine.getStatus()).unsent).toBeGreaterThan(0);
    } finally {
      await host.sandbox.clearFaults();
    }
    expect(seen.filter((line) => line !== 'Saving…')).not.toHaveLength(0);
    for (const line of seen)
      expect(line).toMatch(/^(Saving…|Saved on this computer; waiting to be sent\.)$/);
    await expectText(saveLine, /^Saved and sent\.$/, 20_000);
  }, 120_000);

  // A half-typed vector is kept here and not sent (the API refuses it): the line said "Saved and
  // sent." while the service had the vector before.
  it('says a change that fails a field check is not sent until the field is fixed', async () => {
    const { host, page } = await apps.open({
      beforeWindow: async (h) => {
        await h.engine.syncNow();
      },
    });
    const { reportId } = await savedDraft(host, {
      title: 'Open redirect after login on *.example.com',
      asset: 'https://login.example.com/?next=//evil.example',
    });
    await host.engine.syncNow();
    await goTo(page, `#/reports/${reportId}`);
    const saveLine = page.locator('.save-state');
    await expectText(saveLine, /^Saved and sent\.$/, 20_000);
    const vector = page.getByRole('textbox', { name: 'CVSS vector', exact: true });
    await vector.click();
    await page.keyboard.type('CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:');
    await expectText(
      saveLine,
      /^Saved on this computer; sent once the fields marked below are fixed\.$/,
      20_000,
    );
    await page.keyboard.type('L/A:N');
    await expectText(saveLine, /^Saved and sent\.$/, 20_000);
    // Half a vector again, then back to the vector the service has: nothing to send, and the line
    // says so (a walk saw "waiting to be sent" stay: the read after the save was the same as the
    // report shown, so the editor never heard the queue was empty).
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await expectText(
      saveLine,
      /^Saved on this computer; sent once the fields marked below are fixed\.$/,
      20_000,
    );
    await page.keyboard.type('L/A:N');
    await expectText(saveLine, /^Saved and sent\.$/, 20_000);
    const server = await host.sandbox.api<{ cvss_vector: string }>(
      'GET',
      `/api/reports/${reportId}`,
      { token: host.key },
    );
    expect(server.body.cvss_vector).toBe('CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N');
  }, 120_000);
});
