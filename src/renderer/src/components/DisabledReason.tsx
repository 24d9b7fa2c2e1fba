/**
 * The text that says why a control is disabled; the control points to it with aria-describedby.
 * `unseen`: read with the control only, where a line beside it already says what happened.
 */
export function DisabledReason({
  id,
  reason,
  unseen = false,
}: {
  id: string;
  reason: string | null;
  unseen?: boolean;
}) {
  if (!reason) return null;
  return (
    <span id={id} className={unseen ? 'visually-hidden' : 'disabled-reason'}>
      {reason}
    </span>
  );
}
