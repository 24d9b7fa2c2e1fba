import { describe, expect, it } from 'vitest';
import { useAppPerTest } from './support/app';
import { until } from './support/ui';

/**
 * Words typed in a draft's description and, before the save's short delay, another draft opened
 * from the list: the walk of the built app found them gone, online and offline (the closing save
 * read the description once the editor had been destroyed).
 */
describe('renderer: opening another draft right after typing keeps what was typed', () => {
  const apps = useAppPerTest('switch-draft-keeps-typing');

  it('typed in A, B clicked at once, and back (online, then offline): A has its words, B has none', async () => {
    const { host, page } = await apps.open({
      beforeWindow: async (h) => {
        for (const [title, text] of [
          ['Draft A', 'Alpha text.'],
          ['Draft B', 'Beta text.'],
        ] as const)
          await h.writeDraft(h.programs.open.id, {
            title,
            asset: 'https://a.example.com',
            description: `## Steps to reproduce\n\n${text}\n`,
            cvss_vector: '',
          });
        await h.settled();
      },
      hash: '#/reports',
    });
    const description = page.getByRole('textbox', { name: 'Description', exact: true });
    const link = (title: string) =>
      page.locator('[aria-label="Reports"] .report-row a', { hasText: title });
    const idOf = async (title: string): Promise<string> =>
      decodeURIComponent(
        ((await link(title).getAttribute('href')) ?? '').replace('#/reports/', ''),
      );
    await link('Draft A').waitFor();
    const ids = { 'Draft A': await idOf('Draft A'), 'Draft B': await idOf('Draft B') };
    const stored = async (title: 'Draft A' | 'Draft B'): Promise<string> =>
      (await host.engine.getReport(ids[title]))?.draft?.content.description ?? '';

    try {
      for (const mode of ['online', 'offline'] as const) {
        if (mode === 'offline')
          await host.sandbox.faults({ rate: 1, reset_connection: true, seed: 5 });
        for (const [from, to, text] of [
          ['Draft A', 'Draft B', 'Alpha text.'],
          ['Draft B', 'Draft A', 'Beta text.'],
        ] as const) {
          await link(from).click();
          await description.getByText(text, { exact: false }).click();
          await page.keyboard.press('End');
          const typed = `${mode}-typed-in-${from.slice(-1)}`;
          await page.keyboard.type(` ${typed}`);
          expect(await description.innerText()).toContain(typed);
          await link(to).click();
          await until(
            `"${typed}" saved to ${from}`,
            async () => (await stored(from)).includes(typed),
            10_000,
          );
          expect(await stored(to)).not.toContain(typed);
          await link(from).click();
          await until(`${from} shows "${typed}" again`, async () =>
            (await description.innerText()).includes(typed),
          );
        }
      }
    } finally {
      await host.sandbox.clearFaults();
    }
  }, 180_000);
});
