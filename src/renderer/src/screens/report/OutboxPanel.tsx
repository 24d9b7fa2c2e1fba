import type { OutboxEntryView, OutboxKind } from '../../../../shared/bridge/views';
import { bridge } from '../../bridge';
import { ErrorAlert } from '../../components/ErrorAlert';
import { reportError } from '../../stores/notices';
import { useReport } from '../../stores/report';

const KIND_TEXT: Record<OutboxKind, string> = {
  save_report: 'Save the draft',
  upload_file: 'Upload a file',
  remove_file: 'Remove a file',
  submit: 'Submit',
  withdraw: 'Withdraw',
  post_message: 'Send a message',
};

/** What an entry is doing, in the researcher's words. */
function stateText(e: OutboxEntryView): string {
  if (e.state === 'parked') {
    return e.kind === 'save_report' || e.kind === 'upload_file' || e.kind === 'remove_file'
      ? 'refused by the server: it is sent again when you change the draft, or press Retry'
      : 'refused by the server: fix the cause, then Retry or Discard';
  }
  if (e.state === 'in_flight') return 'sending now…';
  if (e.error?.status === 0 || e.error?.code === 'network_error') {
    return 'waiting for the connection (kept on this computer)';
  }
  if (e.attempts > 0) return `will be sent again shortly (tried ${e.attempts}×)`;
  return 'waiting to be sent';
}

/** Changes not yet accepted by the server; a stopped one needs the user: retry or discard. */
export function OutboxPanel({
  entries,
  readOnly,
}: {
  entries: OutboxEntryView[];
  readOnly: boolean;
}) {
  const open = entries.filter((e) => e.state !== 'done');
  if (open.length === 0) return null;
  const act = (call: Promise<void>): void => {
    call.then(() => useReport.getState().reload()).catch(reportError);
  };
  return (
    <section aria-labelledby="outbox-heading" className="outbox card">
      <h2 id="outbox-heading">Unsent changes</h2>
      <ul className="outbox-list">
        {open.map((e) => (
          <li key={e.id}>
            <span>
              {KIND_TEXT[e.kind]} — {stateText(e)}
            </span>
            {e.error ? <ErrorAlert error={e.error} /> : null}
            {e.state === 'parked' ? (
              <span className="action-row">
                <button
                  type="button"
                  disabled={readOnly}
                  onClick={() => act(bridge.retryEntry(e.id))}
                >
                  Retry
                </button>
                <button
                  type="button"
                  disabled={readOnly}
                  onClick={() => act(bridge.discardEntry(e.id))}
                >
                  Discard
                </button>
              </span>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
