/** The text that says why a control is disabled; the control points to it with aria-describedby. */
export function DisabledReason({ id, reason }: { id: string; reason: string | null }) {
  if (!reason) return null;
  return (
    <span id={id} className="disabled-reason">
      {reason}
    </span>
  );
}
