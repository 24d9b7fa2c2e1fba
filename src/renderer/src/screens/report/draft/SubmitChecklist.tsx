import { useCallback, useEffect, useState } from 'react';
import type { ChecklistView } from '@shared/bridge/views';
import { bridge } from '../../../bridge';
import { Dialog } from '../../../components/Dialog';
import { reportError } from '../../../stores/notices';
import { useReport } from '../../../stores/report';
import { useSession } from '../../../stores/session';
import { DuplicateHint } from '../evidence/DuplicateHint';
import { ReasonedButton } from '../../../components/ReasonedButton';
import { useBusyAction } from '../../../components/useBusyAction';

interface SubmitChecklistProps {
  reportId: string;
  readOnlyReason: string | null;
  onClose(): void;
  onSubmitted(): void;
}

/** Every submit precondition with its live state and how to fix it; submit when all pass. */
export function SubmitChecklist({
  reportId,
  readOnlyReason,
  onClose,
  onSubmitted,
}: SubmitChecklistProps) {
  const [checklist, setChecklist] = useState<ChecklistView | null>(null);
  const [busy, runBusy] = useBusyAction();
  const detail = useReport((s) => s.detail);
  const offline = useSession((s) => s.status?.connectivity === 'offline');
  // The state is set when the answer comes, never synchronously in the effect that asks.
  const refresh = useCallback(
    () => bridge.getChecklist(reportId).then(setChecklist, reportError),
    [reportId],
  );
  useEffect(() => {
    void refresh();
    // Live: uploads finish, the account changes, the program reopens.
    const t = setInterval(() => void refresh(), 2000);
    return () => clearInterval(t);
  }, [refresh, detail]);

  const submit = (): Promise<void> =>
    runBusy(async () => {
      await bridge.submit(reportId);
      await useReport.getState().reload();
      onSubmitted();
    });
  const reason =
    readOnlyReason ??
    (checklist && !checklist.ok ? 'Fix the failed items first.' : checklist ? null : 'Checking…');
  return (
    <Dialog title="Submit checklist" onClose={onClose} className="checklist-dialog">
      {/* Opened on its list, read first: "Submit report" waits for it (disabled while it loads),
          and the first control left, Close, took the focus. */}
      <ul aria-label="Checklist" className="checklist" tabIndex={-1} data-autofocus>
        {checklist?.items.map((item) => (
          <li key={item.id} className={item.ok ? 'check-ok' : 'check-failed'}>
            <span className="check-label">{item.label}</span>{' '}
            <strong className={item.ok ? 'passed' : item.waiting ? 'waiting' : 'failed'}>
              {item.ok ? 'Passed' : item.waiting ? 'Waiting' : 'Failed'}
            </strong>
            {item.detail ? <span className="check-detail"> — {item.detail}</span> : null}
            {!item.ok && item.fix ? (
              <span className="check-fix"> How to fix: {item.fix}</span>
            ) : null}
          </li>
        ))}
      </ul>
      {/* Every item "Passed" offline read as the service's word (walk 17): it is this computer's. */}
      {offline ? (
        <p className="muted">
          Offline: checked against what was last synced. The report is sent when the connection
          returns, and the service checks it then.
        </p>
      ) : null}
      <DuplicateHint reportId={reportId} />
      <div className="action-row">
        <ReasonedButton
          className="primary"
          reason={reason}
          busy={busy}
          onClick={() => void submit()}
        >
          Submit report
        </ReasonedButton>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
