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
