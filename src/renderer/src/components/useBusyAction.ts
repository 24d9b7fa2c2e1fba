import { useState } from 'react';
import { reportError } from '../stores/notices';
import { focusBackWhenEnabled } from '../lib/focus';

/**
 * An action started from a button that takes a while: `busy` while it runs (the button waits),
 * and a failure shown as a notice rather than lost. The button, disabled meanwhile, gets the
 * focus back when the action leaves it nowhere (a cancelled file dialog left it on the window).
 */
export function useBusyAction(): [
  busy: boolean,
  run: (action: () => Promise<void>) => Promise<void>,
] {
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<void>): Promise<void> => {
    const opener = document.activeElement;
    setBusy(true);
    try {
      await action();
    } catch (e) {
      reportError(e);
    } finally {
      setBusy(false);
      focusBackWhenEnabled(opener);
    }
  };
  return [busy, run];
}
