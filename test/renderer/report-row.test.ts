/**
 * A report's row in the list at the window's default width: its second line (status, program,
 * score, last update) is read whole. A walk found "CVSS 9.1…" and "Updated Nov 30, 20…" cut off:
 * the row gave the full date and time.
 */
import { describe, expect, it } from 'vitest';
import { savedDraft } from '../support/drafts';
import { reportText } from '../support/report-texts';
import { useAppPerFile } from './support/app';
import { expectText, goTo, until } from './support/ui';

describe('renderer: a report row', () => {
  const opened = useAppPerFile('report-row', {});

  it('shows its status, program, score and update uncut beside the open report', async () => {
    const { host, page } = opened;
    const title = 'Bearer token accepted by every host under *.example.com: mass user read';
    const { reportId } = await savedDraft(host, {
      title,
      asset: 'https://api.example.com/v2/users',
      description: reportText('vulhub--influxdb-CVE-2019-20933.md'),
      cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:N',
    });
    await host.settled();
    await goTo(page, `#/reports/${reportId}`);
    const row = page
      .getByRole('list', { name: 'Reports', exact: true })
      .getByRole('listitem')
      .filter({ hasText: title });
    const meta = row.locator('.row-meta > *');
    await meta.first().waitFor();
    const spans = await meta.evaluateAll((els) =>
      els.map((el) => {
        const e = el as unknown as {
          textContent: string;
          scrollWidth: number;
          clientWidth: number;
        };
        return { text: e.textContent, cut: e.scrollWidth > e.clientWidth };
      }),
    );
    expect(spans.map((s) => s.text)).toEqual([
      'Draft',
      (await host.engine.getReport(reportId))?.report?.program_name,
      'CVSS 9.1 Critical',
      expect.stringMatching(/^\d/u),
    ]);
    expect(spans.filter((s) => s.cut).map((s) => s.text)).toEqual([]);
    // The program's name, which gives way first, and the whole date and time stay one hover away.
    expect(await meta.nth(1).getAttribute('title')).toBe(spans[1]?.text);
    expect(await meta.last().getAttribute('title')).toMatch(/^Updated .*\d{4}/u);
  });

  it('follows the draft as it is typed and submitted, before the service has either (walk 18)', async () => {
    const { host, page } = opened;
    const typed = 'IDOR in GET /api/v1/invoices/{id} on *.example.com exposes every tenant';
    // The template's complete description: the checklist passes.
    const { reportId } = await savedDraft(host, { title: 'Invoice export: draft' });
    await host.settled();
    await goTo(page, `#/reports/${reportId}`);
    const rows = page.getByRole('list', { name: 'Reports', exact: true }).getByRole('listitem');
    await rows.filter({ hasText: 'Invoice export: draft' }).waitFor();
    // Every request reaches the service 6 s late: the row's title and status were the service's
    // word, so the row kept its old title for seconds after typing (offline, until online again),
    // and read "Unsent · Draft" after Submit.
    await host.sandbox.faults({ rate: 1, latency_ms: 6_000, seed: 18 });
    const row = rows.filter({ hasText: typed });
    try {
      const title = page.getByRole('textbox', { name: 'Title', exact: true });
      await title.click();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type(typed);
      // Within 3 s, half the service's delay: what the row says came from this computer.
      await row.waitFor({ timeout: 3_000 });
      await page.getByRole('button', { name: 'Check and submit', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Submit checklist', exact: true });
      const submit = dialog.getByRole('button', { name: 'Submit report', exact: true });
      await until('"Submit report" enabled', () => submit.isEnabled(), 20_000);
      await submit.click();
      await expectText(row.locator('.status'), /^Submitting$/, 3_000);
    } finally {
      await host.sandbox.clearFaults();
    }
    await expectText(row.locator('.status'), /^In triage$/, 30_000);
  }, 90_000);
});
