import type { OutboxEntryView, OutboxKind } from '@shared/bridge/views';
import { bridge } from '../../bridge';
import { ErrorAlert } from '../../components/ErrorAlert';
import { reportError } from '../../stores/notices';
import { useReport } from '../../stores/report';
import { focusHeadingOnceShown, focusIsLost } from '../../lib/focus';

// Names of the change, not commands: "Save the draft: held back" read as an instruction (walk 17).
const KIND_TEXT: Record<OutboxKind, string> = {
  save_report: "The draft's last save",
  upload_file: 'A file upload',
  remove_file: 'A file removal',
  submit: 'The submit',
  withdraw: 'The withdrawal',
  post_message: 'A message',
};

/** What the researcher can do with a stopped entry, in the order the buttons stand. */
const ENTRY_ACTIONS = [
  ['Retry', (id: number) => bridge.retryEntry(id)],
  ['Discard', (id: number) => bridge.discardEntry(id)],
] as const;

const isDraftChange = (e: OutboxEntryView): boolean =>
  e.kind === 'save_report' || e.kind === 'upload_file' || e.kind === 'remove_file';

/**
 * A draft's change held back by the app's credential check goes by itself once every finding is
 * redacted or kept: a Retry before that would only hold it back again. The check's own section
 * lists it (`HeldByCheck`), where its findings are: at the top of the page, a panel coming up as
 * a token is typed pushed the form down, and said the hold a third time.
 */
const heldByCheck = (e: OutboxEntryView): boolean =>
  e.state === 'parked' && e.error?.code === 'secrets_found' && isDraftChange(e);

/** Why a stopped entry stopped, in the researcher's words: who held it back, what comes next. */
function stoppedText(e: OutboxEntryView): string {
  // The app's own credential check held it back: the server never saw it (a draft's change held
  // so is the check's to list, `HeldByCheck`).
  if (e.error?.code === 'secrets_found') {
    return 'held back on this computer (the server has not seen it): redact or keep every finding, then Retry';
  }
  // No server answered (status 0, the outbox's client_error): the app failed before sending.
  if (e.error?.code === 'client_error' || e.error?.status === 0) {
    return 'stopped on this computer (the server has not seen it): press Retry';
  }
  return isDraftChange(e)
    ? 'refused by the server: it is sent again when you change the draft, or press Retry'
    : 'refused by the server: fix the cause, then Retry or Discard';
}

/** What the changes still on their way amount to, in one quiet line (no alert, no panel). */
export function waitingText(entries: readonly OutboxEntryView[], offline: boolean): string | null {
  const waiting = entries.filter((e) => e.state === 'pending' || e.state === 'in_flight').length;
  if (waiting === 0) return null;
  const what = waiting === 1 ? '1 change waits' : `${waiting} changes wait`;
  return offline
    ? `${what} for the connection (kept on this computer).`
    : `${what} to be sent (kept on this computer).`;
}

/**
 * The heading that takes the focus an entry's button leaves to the window when it goes with its
 * entry: that of the section it stood in while it is still shown (`within`, the credentials
 * check: its findings still wait), else the report's own pane's (beside the reports list, whose
 * heading is the list's). Read while the button stands: once it is gone it has no ancestors.
 */
function headingFor(button: HTMLElement, within?: string): () => HTMLElement | null {
  const section = within ? button.closest(within) : null;
  const pane = button.closest('.workspace-detail') ?? button.closest('main');
  return () =>
    (section?.isConnected ? section.querySelector<HTMLElement>('h2') : null) ??
    pane?.querySelector<HTMLElement>('h1') ??
    null;
}

/** Runs an entry's action, then reads the report again; the focus its button leaves goes on. */
function act(call: Promise<void>, button: HTMLElement, within?: string): void {
  const heading = headingFor(button, within);
  call
    .then(() => useReport.getState().reload())
    .then(() =>
      focusHeadingOnceShown(() => (button.isConnected || !focusIsLost() ? null : heading()), 30),
    )
    .catch(reportError);
}

interface EntriesProps {
  entries: readonly OutboxEntryView[];
  readOnly: boolean;
}

/**
 * The changes that stopped and need the researcher: retry or discard. Changes still on their way
 * (offline, retrying) are no business of this panel: they are counted quietly (the draft's save
 * line, `waitingText`, the status bar's "N unsent"), so typing offline never brings it up; nor
 * are the draft's changes the credential check holds (`HeldByCheck`).
 */
export function OutboxPanel({ entries, readOnly }: EntriesProps) {
  const stopped = entries.filter((e) => e.state === 'parked' && !heldByCheck(e));
  if (stopped.length === 0) return null;
  return (
    <section aria-labelledby="outbox-heading" className="outbox card">
      <h2 id="outbox-heading">Unsent changes</h2>
      <ul className="outbox-list">
        {stopped.map((e) => (
          <li key={e.id}>
            <span>
              {KIND_TEXT[e.kind]} — {stoppedText(e)}.
            </span>
            {e.error ? <ErrorAlert error={e.error} /> : null}
            <span className="action-row">
              {ENTRY_ACTIONS.map(([label, call]) => (
                <button
                  key={label}
                  type="button"
                  disabled={readOnly}
                  onClick={(click) => act(call(e.id), click.currentTarget)}
                >
                  {label}
                </button>
              ))}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The draft's changes the credential check holds back, listed inside that check (the save line
 * and the check's own words say why): each goes by itself once every finding is redacted or kept,
 * so Discard is all there is to offer (the service then keeps the version before).
 */
export function HeldByCheck({ entries, readOnly }: EntriesProps) {
  const held = entries.filter(heldByCheck);
  if (held.length === 0) return null;
  return (
    <ul aria-label="Held back by this check" className="outbox-list held-by-check">
      {held.map((e) => (
        <li key={e.id}>
          <span id={`held-change-${e.id}`}>
            {KIND_TEXT[e.kind]}: held back, the service has not seen it.
          </span>{' '}
          <button
            type="button"
            disabled={readOnly}
            // Beside "Discard draft", it says which: this change, not the draft.
            aria-describedby={`held-change-${e.id}`}
            // Its findings still wait: the focus stays in the check, not at the page's top.
            onClick={(click) =>
              act(bridge.discardEntry(e.id), click.currentTarget, 'section.findings')
            }
          >
            Discard
          </button>
        </li>
      ))}
    </ul>
  );
}
