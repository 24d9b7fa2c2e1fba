import { useId, type ComponentProps } from 'react';
import { DisabledReason } from './DisabledReason';

/**
 * A button that cannot run while `reason` says why, or while its action is `busy`: the reason
 * stands beside it and is read with it (`aria-describedby`), so a disabled button never leaves the
 * user guessing. The reason's id is React's own (`useId`): unique however many stand on a page.
 */
export function ReasonedButton({
  reason,
  busy = false,
  reasonUnseen = false,
  children,
  ...button
}: Omit<ComponentProps<'button'>, 'type' | 'disabled' | 'aria-describedby'> & {
  /** Why it cannot run now, or null. */
  reason: string | null;
  busy?: boolean;
  /** The reason is read with the button but not shown (a line beside it says more). */
  reasonUnseen?: boolean;
}) {
  const reasonId = useId();
  return (
    <>
      <button
        type="button"
        {...button}
        disabled={busy || reason !== null}
        aria-describedby={reason ? reasonId : undefined}
      >
        {children}
      </button>
      <DisabledReason id={reasonId} reason={reason} unseen={reasonUnseen} />
    </>
  );
}
