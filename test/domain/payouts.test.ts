import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  csvField,
  payoutsCsv,
  payoutsView,
  type PaidReport,
} from '../../src/engine/domain/payouts';

const paid = (
  id: string,
  program: string,
  status: PaidReport['payout']['status'],
  cents: number,
  approved: string,
): PaidReport => ({
  id,
  title: `Report ${id}`,
  program_id: program.toLowerCase(),
  program_name: program,
  payout: {
    status,
    amount_cents: cents,
    approved_at: approved,
    transferred_at:
      status === 'transferred' || status === 'received' ? '2026-10-03T10:00:00Z' : null,
    received_at: status === 'received' ? '2026-10-05T10:00:00Z' : null,
    payout_failed_at: status === 'payout_failed' ? '2026-10-04T10:00:00Z' : null,
  },
});

const reports = [
  paid('a', 'Acme', 'received', 150_000, '2026-09-30T10:00:00Z'),
  paid('b', 'Acme', 'approving', 50_000, '2026-11-02T10:00:00Z'),
  paid('c', 'Globex', 'transferred', 25_050, '2026-10-01T10:00:00Z'),
  paid('d', 'Globex', 'payout_failed', 10_000, '2026-10-02T10:00:00Z'),
];

describe('payouts', () => {
  const view = payoutsView(reports);

  it('lists every payout with its steps, newest approval first', () => {
    expect(view.rows.map((r) => r.reportId)).toEqual(['b', 'd', 'c', 'a']);
    expect(view.rows.find((r) => r.reportId === 'a')?.steps.map((s) => s.step)).toEqual([
      'approved',
      'transferred',
      'received',
    ]);
    expect(view.rows.find((r) => r.reportId === 'd')?.steps.map((s) => s.step)).toEqual([
      'approved',
      'failed',
    ]);
  });

  it('totals by program, by month and by status', () => {
    expect(view.total).toEqual({ count: 4, amountCents: 235_050 });
    expect(view.byProgram.map((t) => [t.label, t.count, t.amountCents])).toEqual([
      ['Acme', 2, 200_000],
      ['Globex', 2, 35_050],
    ]);
    expect(view.byMonth.map((t) => [t.label, t.amountCents])).toEqual([
      ['Nov 2026', 50_000],
      ['Oct 2026', 35_050],
      ['Sep 2026', 150_000],
    ]);
    expect(view.byStatus.map((t) => [t.label, t.count, t.amountCents])).toEqual([
      ['Approved', 1, 50_000],
      ['Transferred', 1, 25_050],
      ['Received', 1, 150_000],
      ['Failed', 1, 10_000],
    ]);
  });

  it('exports the table as CSV', () => {
    const csv = payoutsCsv(view.rows);
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'report_id,title,program,status,amount_usd,approved_at,transferred_at,received_at,failed_at',
    );
    expect(lines).toContain(
      'c,Report c,Globex,Transferred,250.50,2026-10-01T10:00:00Z,2026-10-03T10:00:00Z,,',
    );
    expect(lines).toHaveLength(5);
  });

  it('quotes CSV fields and defuses spreadsheet formulas', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('-1')).toBe("'-1");
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
  });

  it('writes one CSV row per payout whatever the titles hold', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 8 }), (titles) => {
        const rows = payoutsView(
          titles.map((title, i) => ({
            ...paid(String(i), 'P', 'received', i, '2026-01-01T00:00:00Z'),
            title,
          })),
        ).rows;
        const csv = payoutsCsv(rows);
        // Quoted fields may hold line breaks: count records by unquoted CRLFs.
        const records = csv.replace(/"(?:[^"]|"")*"/g, '').split('\r\n').length - 1;
        expect(records).toBe(titles.length + 1);
      }),
    );
  });
});
