import { ConfirmAction } from '../../../components/ConfirmAction';
import { useReport } from '../../../stores/report';

/**
 * Discarding a draft is what the API allows: the service deletes no report, and withdrawing a
 * draft is how it is discarded there (docs/sandbox.md). The dialog says what remains on the
 * service before the researcher confirms.
 */
export function DiscardDraft({
  reportId,
  reason,
  beforeDiscard,
}: {
  reportId: string;
  reason: string | null;
  /** Saves what was typed first: the withdrawn report keeps the last words. */
  beforeDiscard(): Promise<void>;
}) {
  const discard = (): Promise<void> => useReport.getState().withdraw(reportId, beforeDiscard);
  return (
    <ConfirmAction
      label="Discard draft"
      title="Discard this draft?"
      confirmLabel="Discard"
      reason={reason}
      onConfirm={discard}
    >
      <p>
        The service deletes no report: the draft is withdrawn there. It stays on the service as a
        withdrawn report (its title, text and files are kept, nobody triages it, and you cannot edit
        or submit it again), and it leaves your drafts here. This cannot be undone.
      </p>
    </ConfirmAction>
  );
}
