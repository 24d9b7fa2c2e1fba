import { useState } from 'react';
import { reportError } from '../stores/notices';

/**
 * An action started from a button that takes a while: `busy` while it runs (the button waits),
 * and a failure shown as a notice rather than lost.
 */
export function useBusyAction(): [
  busy: boolean,
  run: (action: () => Promise<void>) => Promise<void>,
] {
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<void>): Promise<void> => {
    setBusy(true);
    try {
      await action();
    } catch (e) {
      reportError(e);
    } finally {
      setBusy(false);
    }
  };
  return [busy, run];
}
