import { useCallback, useEffect, useState } from 'react';
import type {
  PayoutRowView,
  PayoutsView,
  PayoutStepName,
  PayoutTotal,
} from '@shared/bridge/evidence-views';
import { bridge, onBridge } from '../../bridge';
import { formatCents, formatTime } from '../../lib/format';
import { reportError } from '../../stores/notices';
import { RouteLink } from '../../components/RouteLink';

const STEP_LABELS: Record<PayoutStepName, string> = {
  approved: 'Approved',
  transferred: 'Transferred',
  received: 'Received',
  failed: 'Failed',
};

const STATUS_LABELS: Record<PayoutRowView['status'], string> = {
  approving: 'Approved',
  transferred: 'Transferred',
  received: 'Received',
  payout_failed: 'Failed',
};

function Totals({ title, totals }: { title: string; totals: PayoutTotal[] }) {
  return (
    <table aria-label={title} className="totals">
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">
            {title.replace(/^Totals by /, '').replace(/^./, (c) => c.toUpperCase())}
          </th>
          <th scope="col">Payouts</th>
          <th scope="col" className="num">
            Amount
          </th>
        </tr>
      </thead>
      <tbody>
        {totals.map((t) => (
          <tr key={t.key}>
            <th scope="row">{t.label}</th>
            <td>{t.count}</td>
            <td className="num">{formatCents(t.amountCents)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Steps({ row }: { row: PayoutRowView }) {
  return (
    <ol aria-label="Steps" className="payout-steps">
      {row.steps.map((s) => (
        <li key={s.step} className={`step step-${s.step}`}>
          {STEP_LABELS[s.step]} <time dateTime={s.at}>{formatTime(s.at)}</time>
        </li>
      ))}
    </ol>
  );
}

/**
 * Earnings at a glance: every payout of the researcher's mirrored reports with
 * its steps, totals by status, program and month, and the table as CSV (saved where the user
 * chooses). Payouts follow the sync: a payout event reloads the screen.
 */
export function PayoutsScreen() {
  const [view, setView] = useState<PayoutsView | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  // The state is set when the answer comes, never synchronously in the effect that asks.
  const load = useCallback(() => bridge.listPayouts().then(setView, reportError), []);
  useEffect(() => {
    void load();
    const offPayout = onBridge('payout-changed', () => void load());
    const offReport = onBridge('report-changed', () => void load());
    return () => {
      offPayout();
      offReport();
    };
  }, [load]);

  async function exportCsv(): Promise<void> {
    try {
      const result = await bridge.exportPayouts();
      if (result) setSaved(`Saved payouts to ${result.savedTo}`);
    } catch (e) {
      reportError(e);
    }
  }

  return (
    <div className="screen payouts-screen">
      <h1>Payouts</h1>
      {view === null ? <p className="muted">Loading…</p> : null}
      {view && view.rows.length === 0 ? (
        <p className="muted">
          No payouts yet. An accepted report's reward shows here once approved.
        </p>
      ) : null}
      {view && view.rows.length > 0 ? (
        <>
          <p className="payouts-total">
            <strong>{formatCents(view.total.amountCents)}</strong> in {view.total.count} payout
            {view.total.count === 1 ? '' : 's'}
          </p>
          <div className="action-row">
            <button type="button" onClick={() => void exportCsv()}>
              Export CSV
            </button>
            {saved ? (
              <span role="status" className="muted">
                {saved}
              </span>
            ) : null}
          </div>
          <div className="totals-grid">
            <Totals title="Totals by status" totals={view.byStatus} />
            <Totals title="Totals by program" totals={view.byProgram} />
            <Totals title="Totals by month" totals={view.byMonth} />
          </div>
          <table aria-label="Payouts" className="payouts-table">
            <caption>Every payout</caption>
            <thead>
              <tr>
                <th scope="col">Report</th>
                <th scope="col">Program</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col">Status</th>
                <th scope="col">Steps</th>
              </tr>
            </thead>
            <tbody>
              {view.rows.map((row) => (
                <tr key={row.reportId}>
                  <th scope="row">
                    <RouteLink to={{ name: 'report', reportId: row.reportId }}>
                      {row.title}
                    </RouteLink>
                  </th>
                  <td>{row.programName}</td>
                  <td className="num">{formatCents(row.amountCents)}</td>
                  <td>
                    <span className={`payout-status payout-${row.status}`}>
                      {STATUS_LABELS[row.status]}
                    </span>
                  </td>
                  <td>
                    <Steps row={row} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </div>
  );
}
