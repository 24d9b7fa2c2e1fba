import { useEffect } from 'react';
import { bridge } from '../../../bridge';
import { reportError } from '../../../stores/notices';
import { listen, onDocument, onWindow } from '../../../lib/listen';

/**
 * The thread on screen is read: when the page shows it to the researcher (the window visible and
 * focused), and again when new messages arrive while they look at it. A reload of the page while
 * the app is in the background reads nothing; the window coming back does.
 */
export function useThreadRead(reportId: string, messages: number, status: string): void {
  useEffect(() => {
    const read = (): void => {
      if (document.visibilityState !== 'visible' || !document.hasFocus()) return;
      bridge.markThreadRead(reportId).catch(reportError);
    };
    read();
    return listen(onWindow('focus', read), onDocument('visibilitychange', read));
  }, [reportId, messages, status]);
}
