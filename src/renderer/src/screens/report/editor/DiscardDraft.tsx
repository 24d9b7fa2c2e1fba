import { useState } from 'react';
import { bridge } from '../../../bridge';
import { Dialog } from '../../../components/Dialog';
import { DisabledReason } from '../../../components/DisabledReason';
import { reportError } from '../../../stores/notices';
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
  const [confirming, setConfirming] = useState(false);
  async function discard(): Promise<void> {
    setConfirming(false);
    try {
      await beforeDiscard();
      await bridge.withdraw(reportId);
      await useReport.getState().reload();
    } catch (e) {
      reportError(e);
    }
  }
  return (
    <>
      <button
        type="button"
        className="danger"
        disabled={reason !== null}
        aria-describedby={reason ? 'discard-reason' : undefined}
        onClick={() => setConfirming(true)}
      >
        Discard draft
      </button>
      <DisabledReason id="discard-reason" reason={reason} />
      {confirming ? (
        <Dialog title="Discard this draft?" alert onClose={() => setConfirming(false)}>
          <p>
            The service deletes no report: the draft is withdrawn there. It stays on the service as
            a withdrawn report (its title, text and files are kept, nobody triages it, and you
            cannot edit or submit it again), and it leaves your drafts here. This cannot be undone.
          </p>
          <div className="action-row">
            <button type="button" className="danger" onClick={() => void discard()}>
              Discard
            </button>
            <button type="button" onClick={() => setConfirming(false)} autoFocus>
              Cancel
            </button>
          </div>
        </Dialog>
      ) : null}
    </>
  );
}
