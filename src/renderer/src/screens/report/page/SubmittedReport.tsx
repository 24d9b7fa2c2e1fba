import { useRef, useState } from 'react';
import { isTerminalStatus, type Report } from '@shared/api';
import type { ReportDetailView } from '@shared/bridge/views';
import { ConfirmAction } from '../../../components/ConfirmAction';
import { Markdown } from '../../../components/Markdown';
import { formatBytes, formatCents, formatTime, humanize, statusLabel } from '../../../lib/format';
import { routeHash } from '../../../lib/routes';
import { buildTimeline, outcomeLabel } from '../../../lib/timeline';
import { useReport } from '../../../stores/report';
import { useReadOnlyReason, useSession } from '../../../stores/session';
import { OutboxPanel, waitingText } from '../OutboxPanel';
import { SecretFindings } from '../evidence/SecretFindings';
import { MessageThread } from './MessageThread';
import { ReplyBox } from './ReplyBox';
import { useDownload } from './useDownload';
import { useThreadRead } from './useThreadRead';

/**
 * The report's id, to quote to the program team or in a write-up: shown, selectable and copied
 * with one button. The copy is the editing command on the selected text (the window grants no
 * clipboard permission); where it is refused the id stays selected for Ctrl/Cmd+C.
 */
function ReportId({ id }: { id: string }) {
  const field = useRef<HTMLInputElement>(null);
  const [said, setSaid] = useState('');
  function copy(): void {
    const input = field.current;
    if (!input) return;
    input.focus();
    input.select();
    const copied = document.execCommand('copy');
    setSaid(copied ? 'Report ID copied.' : 'Report ID selected: press Ctrl+C (⌘C) to copy it.');
  }
  return (
    <p className="report-id">
      <label>
        <span>Report ID </span>
        <input
          ref={field}
          readOnly
          value={id}
          size={id.length}
          className="mono"
          onFocus={(e) => e.currentTarget.select()}
        />
      </label>{' '}
      <button type="button" onClick={copy}>
        Copy report ID
      </button>{' '}
      <span role="status" className="muted">
        {said}
      </span>
    </p>
  );
}

function Timeline({ detail, report }: { detail: ReportDetailView; report: Report }) {
  const events = buildTimeline(report, detail.messages);
  return (
    <ul aria-label="Timeline" className="timeline">
      {events.map((e, i) => (
        <li key={`${e.at}-${i}`}>
          <time dateTime={e.at}>{formatTime(e.at)}</time> {e.label}
        </li>
      ))}
    </ul>
  );
}

function DecisionPanel({ report }: { report: Report }) {
  return (
    <section aria-labelledby="decision-heading" className="card">
      <h2 id="decision-heading">Decision</h2>
      {report.decision ? (
        <>
          <p>
            <strong>{outcomeLabel(report.decision.outcome)}</strong> —{' '}
            {formatTime(report.decision.at)}
          </p>
          {report.decision.message ? (
            <Markdown source={report.decision.message} headingOffset={3} />
          ) : null}
        </>
      ) : (
        <p className="muted">No decision yet.</p>
      )}
    </section>
  );
}

function PayoutPanel({ report }: { report: Report }) {
  const p = report.payout;
  return (
    <section aria-labelledby="payout-heading" className="card">
      <h2 id="payout-heading">Payout</h2>
      {p ? (
        <dl className="facts">
          <dt>Status</dt>
          <dd>{humanize(p.status)}</dd>
          <dt>Amount</dt>
          <dd>{formatCents(p.amount_cents)}</dd>
          <dt>Approved</dt>
          <dd>{formatTime(p.approved_at)}</dd>
          <dt>Transferred</dt>
          <dd>{formatTime(p.transferred_at)}</dd>
          <dt>Received</dt>
          <dd>{formatTime(p.received_at)}</dd>
          {p.payout_failed_at ? (
            <>
              <dt>Failed</dt>
              <dd>{formatTime(p.payout_failed_at)}</dd>
            </>
          ) : null}
        </dl>
      ) : (
        <p className="muted">No reward approved yet.</p>
      )}
    </section>
  );
}

function SubmissionPanel({
  report,
  onDownload,
}: {
  report: Report;
  onDownload(id: string, name: string): void;
}) {
  const s = report.submission;
  if (!s) return null;
  const files = Object.entries(s.attachments);
  return (
    <section aria-labelledby="submission-heading" className="card submission">
      <h2 id="submission-heading">Submission</h2>
      <p className="muted">
        Frozen at {formatTime(s.submitted_at)} under policy version {s.program.policy_version} of{' '}
        {s.program.name}. Payments status then: {humanize(s.payments.status)}.
      </p>
      <dl className="facts">
        <dt>Title</dt>
        <dd>{s.content.title}</dd>
        <dt>Asset</dt>
        <dd>{s.content.asset}</dd>
        <dt>CVSS vector</dt>
        <dd className="mono">{s.content.cvss_vector || '—'}</dd>
      </dl>
      <Markdown
        source={s.content.description}
        headingOffset={2}
        imagesOf={report.id}
        onDownload={(t, label) => {
          if (t.reportId === report.id) onDownload(t.fileId, label);
        }}
      />
      <h3>Files</h3>
      {files.length === 0 ? <p className="muted">No files.</p> : null}
      <ul className="submission-files">
        {files.map(([id, a]) => (
          <li key={id}>
            <button type="button" onClick={() => onDownload(id, a.name)}>
              Download {a.name}
            </button>{' '}
            <span className="muted">
              {formatBytes(a.size)} · sha256 <span className="mono">{a.sha256.slice(0, 12)}</span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function WithdrawButton({ reportId, reason }: { reportId: string; reason: string | null }) {
  const withdraw = (): Promise<void> => useReport.getState().withdraw(reportId);
  return (
    <ConfirmAction
      label="Withdraw report"
      title="Withdraw this report?"
      confirmLabel="Withdraw"
      reason={reason}
      onConfirm={withdraw}
    >
      <p>
        The report leaves triage for good and gives back its active-report slot. This cannot be
        undone.
      </p>
    </ConfirmAction>
  );
}

/** A report after submission: status, timeline, decision, payout, thread, reply, withdraw. */
export function SubmittedReport({ detail, report }: { detail: ReportDetailView; report: Report }) {
  const readOnly = useReadOnlyReason();
  const offline = useSession((s) => s.status?.connectivity === 'offline');
  const waiting = waitingText(detail.outbox, offline);
  const { download, saved } = useDownload(report.id);
  useThreadRead(report.id, detail.messages.length, report.status);
  const terminal = isTerminalStatus(report.status);
  const withdrawing = detail.outbox.some((e) => e.kind === 'withdraw' && e.state !== 'done');
  const withdrawReason =
    readOnly ??
    (terminal
      ? report.status === 'withdrawn'
        ? 'This report is withdrawn.'
        : 'A decision was made: the report can no longer be withdrawn.'
      : withdrawing
        ? 'Withdrawal is being sent.'
        : null);
  const replyReason =
    readOnly ?? (terminal ? 'The report is closed: replies are no longer possible.' : null);
  return (
    <div className="screen report-page">
      {/* The way back to its program, as a draft has it (a walk missed it once submitted). A
          plain link (the router follows the hash): RouteLink here moved two shared chunks into
          the page's first one. */}
      <p className="breadcrumb">
        <a href={routeHash({ name: 'program', programId: report.program_id })}>
          ← {report.program_name}
        </a>
      </p>
      <h1>{report.title}</h1>
      <p className="report-status">
        <strong className={`status status-${report.status}`}>
          {statusLabel(report.status, report.display_status)}
        </strong>
      </p>
      <ReportId id={report.id} />
      {report.status === 'needs_info' ? (
        <p className="callout">
          The triage team needs more information: answer in the reply box below.
        </p>
      ) : null}
      {saved ? (
        <p role="status" className="muted">
          {saved}
        </p>
      ) : null}
      {waiting ? <p className="muted outbox-waiting">{waiting}</p> : null}
      <OutboxPanel entries={detail.outbox} readOnly={!!readOnly} />
      <SecretFindings reportId={report.id} readOnly={!!readOnly} />
      <div className="two-columns">
        <div>
          <h2>Timeline</h2>
          <Timeline detail={detail} report={report} />
        </div>
        <div>
          <DecisionPanel report={report} />
          <PayoutPanel report={report} />
        </div>
      </div>
      <MessageThread messages={detail.messages} reportId={report.id} onDownload={download} />
      <ReplyBox reportId={report.id} disabledReason={replyReason} />
      <div className="action-row">
        <WithdrawButton reportId={report.id} reason={withdrawReason} />
      </div>
      <SubmissionPanel report={report} onDownload={download} />
    </div>
  );
}
