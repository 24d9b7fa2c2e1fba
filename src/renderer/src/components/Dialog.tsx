import { useEffect, useId, useRef, type ReactNode } from 'react';

interface DialogProps {
  title: string;
  onClose(): void;
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
export function Dialog({ title, onClose, children, alert, className }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement;
    if (!dialog.open) dialog.showModal();
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    const onCancel = (e: Event): void => {
      e.preventDefault();
      onCloseRef.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
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
