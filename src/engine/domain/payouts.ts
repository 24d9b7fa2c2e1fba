/**
 * Earnings: every payout of the mirrored reports with its steps, and totals by
 * program, by month and by status; the CSV export of the table. Pure: the engine hands in reports.
 */
import type { Payout, PayoutStatus } from '@shared/api';
import type {
  PayoutRowView,
  PayoutsView,
  PayoutStepName,
  PayoutTotal,
} from '@shared/bridge/evidence-views';

export interface PaidReport {
  id: string;
  title: string;
  program_id: string;
  program_name: string;
  payout: Payout;
}

export const PAYOUT_STATUS_LABELS: Record<PayoutStatus, string> = {
  approving: 'Approved',
  transferred: 'Transferred',
  received: 'Received',
  payout_failed: 'Failed',
};

function stepsOf(payout: Payout): { step: PayoutStepName; at: string }[] {
  const steps: { step: PayoutStepName; at: string | null | undefined }[] = [
    { step: 'approved', at: payout.approved_at },
    { step: 'transferred', at: payout.transferred_at },
    { step: 'received', at: payout.received_at },
    { step: 'failed', at: payout.payout_failed_at },
  ];
  return steps.filter((s): s is { step: PayoutStepName; at: string } => typeof s.at === 'string');
}

export function payoutRow(report: PaidReport): PayoutRowView {
  const approved = report.payout.approved_at;
  return {
    reportId: report.id,
    title: report.title,
    programId: report.program_id,
    programName: report.program_name,
    status: report.payout.status,
    amountCents: report.payout.amount_cents,
    steps: stepsOf(report.payout),
    month: approved && /^\d{4}-\d{2}/.test(approved) ? approved.slice(0, 7) : null,
  };
}

function totals(
  rows: PayoutRowView[],
  keyOf: (row: PayoutRowView) => string,
  labelOf: (row: PayoutRowView) => string,
): PayoutTotal[] {
  const byKey = new Map<string, PayoutTotal>();
  for (const row of rows) {
    const key = keyOf(row);
    const total = byKey.get(key) ?? { key, label: labelOf(row), count: 0, amountCents: 0 };
    total.count += 1;
    total.amountCents += row.amountCents;
    byKey.set(key, total);
  }
  return [...byKey.values()];
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function monthLabel(month: string | null): string {
  if (!month) return 'Unknown month';
  const [year, m] = month.split('-');
  return `${MONTHS[Number(m) - 1] ?? m} ${year}`;
}

/** Newest approval first; the totals by month newest first, by program largest first. */
export function payoutsView(reports: readonly PaidReport[]): PayoutsView {
  const rows = reports
    .map(payoutRow)
    .sort(
      (a, b) =>
        (b.steps[0]?.at ?? '').localeCompare(a.steps[0]?.at ?? '') ||
        a.reportId.localeCompare(b.reportId),
    );
  const statuses: PayoutStatus[] = ['approving', 'transferred', 'received', 'payout_failed'];
  return {
    rows,
    total: { count: rows.length, amountCents: rows.reduce((sum, r) => sum + r.amountCents, 0) },
    byProgram: totals(
      rows,
      (r) => r.programId,
      (r) => r.programName,
    ).sort((a, b) => b.amountCents - a.amountCents || a.label.localeCompare(b.label)),
    byMonth: totals(
      rows,
      (r) => r.month ?? '',
      (r) => monthLabel(r.month),
    ).sort((a, b) => b.key.localeCompare(a.key)),
    byStatus: statuses.map((status) => {
      const of = rows.filter((r) => r.status === status);
      return {
        key: status,
        label: PAYOUT_STATUS_LABELS[status],
        count: of.length,
        amountCents: of.reduce((sum, r) => sum + r.amountCents, 0),
      };
    }),
  };
}

/**
 * One CSV field (RFC 4180). A text starting with `=`, `+`, `-`, `@`, tab or CR is prefixed with
 * `'`: titles are the researcher's but program names are not, and a spreadsheet would run them
 * as formulas.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export const PAYOUT_CSV_COLUMNS = [
  'report_id',
  'title',
  'program',
  'status',
  'amount_usd',
  'approved_at',
  'transferred_at',
  'received_at',
  'failed_at',
] as const;

export function payoutsCsv(rows: readonly PayoutRowView[]): string {
  const at = (row: PayoutRowView, step: PayoutStepName): string | null =>
    row.steps.find((s) => s.step === step)?.at ?? null;
  const lines = rows.map((row) =>
    [
      row.reportId,
      row.title,
      row.programName,
      PAYOUT_STATUS_LABELS[row.status],
      (row.amountCents / 100).toFixed(2),
      at(row, 'approved'),
      at(row, 'transferred'),
      at(row, 'received'),
      at(row, 'failed'),
    ]
      .map(csvField)
      .join(','),
  );
  return [PAYOUT_CSV_COLUMNS.join(','), ...lines].join('\r\n') + '\r\n';
}
