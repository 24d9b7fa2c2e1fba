import { useState, type ReactNode } from 'react';
import { Dialog } from './Dialog';
import { ReasonedButton } from './ReasonedButton';

/**
 * A destructive action behind a confirmation: the button (disabled with its reason when it cannot
 * run), then an alert dialog that says what happens, with the action and Cancel (which has the
 * focus: Enter never destroys by accident).
 */
export function ConfirmAction({
  label,
  title,
  confirmLabel,
  reason,
  onConfirm,
  children,
}: {
  /** The button that asks. */
  label: string;
  /** The dialog's question. */
  title: string;
  /** The dialog's button that acts. */
  confirmLabel: string;
  /** Why it cannot run now, or null. */
  reason: string | null;
  onConfirm(): Promise<void>;
  /** What happens, in the dialog. */
  children: ReactNode;
}) {
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <ReasonedButton className="danger" reason={reason} onClick={() => setConfirming(true)}>
        {label}
      </ReasonedButton>
      {confirming ? (
        <Dialog title={title} alert onClose={() => setConfirming(false)}>
          {children}
          <div className="action-row">
            <button
              type="button"
              className="danger"
              onClick={() => {
                setConfirming(false);
                void onConfirm();
              }}
            >
              {confirmLabel}
            </button>
            <button type="button" onClick={() => setConfirming(false)} data-autofocus>
              Cancel
            </button>
          </div>
        </Dialog>
      ) : null}
    </>
  );
}
