import { describe, expect, it } from 'vitest';
import { useAppPerFile } from './support/app';
import { hasFocus, connection, expectText, until } from './support/ui';

/**
 * "Sync now" refreshes everything the researcher sees: a policy changed on the server
 * reaches the program page and the draft started under the old one says so; offline is a calm
 * state of the status bar, not an error.
 */
describe('renderer: Sync now and offline', () => {
  let reportId = '';

  const opened = useAppPerFile('sync-now', {
    beforeWindow: async (h) => {
      await h.engine.syncNow();
      reportId = (await h.engine.createDraft(h.programs.open.id)).reportId;
      return `#/reports/${reportId}`;
    },
  });

  it('a policy changed on the server: the draft says so after "Sync now", the program page shows it', async () => {
    await opened.page.getByRole('textbox', { name: 'Description', exact: true }).waitFor();
    const before =
      (await opened.host.engine.getProgram(opened.host.programs.open.id))?.policy_version ?? 0;
    await opened.host.sandbox.patchProgram(opened.host.programs.open.id, {
      policy: { scope: 'Only checkout.example.com is in scope now.' },
    });
    await opened.page.getByRole('button', { name: 'Sync now', exact: true }).click();
    const note = opened.page.getByRole('note').filter({ hasText: 'policy changed' });
    await expectText(note, new RegExp(`version ${before} → ${before + 1}`), 15_000);
    await note.getByRole('link', { name: 'Read the policy', exact: true }).click();
    await expectText(
      opened.page.getByRole('region', { name: 'Policy', exact: true }),
      /Only checkout\.example\.com is in scope now\./,
    );
    // At the policy, not at the top of the program's page.
    const heading = opened.page.getByRole('heading', { name: 'Policy', exact: true, level: 2 });
    await until('the policy heading has the focus', () => hasFocus(heading));
  });

  it(
    'offline is a calm state: the status says Offline, no error alert',
    { timeout: 60_000 },
    async () => {
      await opened.host.sandbox.faults({ rate: 1, reset_connection: true, seed: 3 });
      try {
        await opened.page.getByRole('button', { name: 'Sync now', exact: true }).click();
        await expectText(connection(opened.page), /Offline/, 20_000);
        // The sync ends with its connection error: the status bar says Offline, no alert comes up.
        await until(
          'the failed sync',
          async () => (await opened.host.engine.getStatus()).lastError !== null,
          45_000,
        );
        expect((await opened.host.engine.getStatus()).lastError?.code).toMatch(
          /network_error|timeout/,
        );
        for (let i = 0; i < 5; i++) {
          expect(await opened.page.getByRole('alert').count()).toBe(0);
          await opened.page.waitForTimeout(150);
        }
      } finally {
        await opened.host.sandbox.clearFaults();
      }
    },
  );
});
