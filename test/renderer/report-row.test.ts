/**
 * A report's row in the list at the window's default width: its second line (status, program,
 * score, last update) is read whole. A walk found "CVSS 9.1…" and "Updated Nov 30, 20…" cut off:
 * the row gave the full date and time.
 */
import { describe, expect, it } from 'vitest';
import { savedDraft } from '../support/drafts';
import { reportText } from '../support/report-texts';
import { useAppPerFile } from './support/app';
import { goTo } from './support/ui';

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
});
