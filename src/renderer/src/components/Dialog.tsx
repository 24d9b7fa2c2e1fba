import { useEffect, useId, useRef, type ReactNode } from 'react';

interface DialogProps {
  title: string;
  /** Closes the dialog: its owner stops rendering it. */
  onClose(): void;
  /**
   * Escape, when it means less than closing (a step of the dialog goes back); `onClose` otherwise.
   * Taken from the key itself, before the browser's cancel: the browser may refuse the page a
   * repeated cancel and close the dialog itself (Chromium's close watchers; `onClose` runs then).
   */
  onEscape?(): void;
  children: ReactNode;
  /** An alertdialog asks to confirm something destructive. */
  alert?: boolean;
  className?: string;
}

/** What Tab stops at. */
const TABBABLE =
  'a[href], button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [contenteditable="true"], [tabindex]:not([tabindex="-1"])';

/**
 * Tab past the dialog's last control comes back to its first, Shift+Tab before its first to its
 * last: the browser's own modal dialog lets the focus leave to the page's body (a walk, from the
 * checklist's Close), where nothing shows it.
 */
function wrapTab(dialog: HTMLDialogElement, e: KeyboardEvent): void {
  const stops = [...dialog.querySelectorAll<HTMLElement>(TABBABLE)].filter(
    (el) => el.getClientRects().length > 0,
  );
  const first = stops[0];
  const last = stops[stops.length - 1];
  const active = document.activeElement;
  if (!first || !last || !(active instanceof Node)) return;
  // Whether any stop lies beyond the focus that way (it may be on no stop: a list read first).
  const follows = (el: HTMLElement): boolean =>
    (active.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
  const precedes = (el: HTMLElement): boolean =>
    (active.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING) !== 0;
  const target = e.shiftKey
    ? stops.some(precedes)
      ? null
      : last
    : stops.some(follows)
      ? null
      : first;
  if (!target) return;
  e.preventDefault();
  target.focus();
}

/**
 * A modal `<dialog>` (focus kept inside, Escape closes), named by its heading. Closed, it gives the
 * focus back to the control that had it when it opened (the browser's own return does not happen:
 * React removes the element before the dialog is closed).
 *
 * Opened, the focus goes to the control marked `data-autofocus` (Cancel in a destructive
 * confirmation). React's `autoFocus` cannot do it: React focuses on mount, then `showModal()`
 * moves the focus to the dialog's first control (the destructive one), so Enter, Enter acted.
 */
export function Dialog({ title, onClose, onEscape, children, alert, className }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  const handlers = useRef({ onClose, onEscape });
  useEffect(() => {
    handlers.current = { onClose, onEscape };
  });
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement;
    if (!dialog.open) dialog.showModal();
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    const onCancel = (e: Event): void => {
      // Not cancelable: the browser closes the dialog whatever the page does (`onNativeClose`).
      if (!e.cancelable) return;
      e.preventDefault();
      (handlers.current.onEscape ?? handlers.current.onClose)();
    };
    // Escape meaning less than closing is the page's own key: left to the dialog's cancel, the
    // browser stops letting the page refuse it after a few (close watchers) and shuts the whole
    // dialog, with what was typed in its step (a walk, the third Escape).
    const onKeyDown = (e: KeyboardEvent): void => {
      if (e.key === 'Tab' && !e.defaultPrevented) {
        wrapTab(dialog, e);
        return;
      }
      const { onEscape: escape } = handlers.current;
      if (e.key !== 'Escape' || !escape || e.defaultPrevented) return;
      e.preventDefault();
      escape();
    };
    // Closed by the browser, not by the owner: the owner follows, or the dialog would stay
    // rendered but shut, and its opener would open nothing (seen in a walk after three Escapes).
    const onNativeClose = (): void => handlers.current.onClose();
    dialog.addEventListener('keydown', onKeyDown);
    dialog.addEventListener('cancel', onCancel);
    dialog.addEventListener('close', onNativeClose);
    return () => {
      dialog.removeEventListener('keydown', onKeyDown);
      dialog.removeEventListener('cancel', onCancel);
      dialog.removeEventListener('close', onNativeClose);
      if (dialog.open) dialog.close();
      // An opener the dialog's action disabled ("Check and submit" once submitted) cannot take
      // it: the screen places the focus itself then.
      if (
        opener instanceof HTMLElement &&
        opener !== document.body &&
        opener.isConnected &&
        !opener.matches(':disabled')
      ) {
        opener.focus();
      }
    };
  }, []);
  return (
    <dialog
      ref={ref}
      role={alert ? 'alertdialog' : 'dialog'}
      aria-modal="true"
      aria-labelledby={headingId}
      className={`dialog ${className ?? ''}`}
    >
      <h2 id={headingId}>{title}</h2>
      {children}
    </dialog>
  );
}
