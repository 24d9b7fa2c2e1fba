import { useEffect } from 'react';
import { bridge, onBridge } from '../bridge';
import { emitCommand } from '../stores/commands';
import { reportError } from '../stores/notices';
import { isConnectivityError } from '../lib/errors';
import { usePrefs } from '../stores/prefs';
import { useReport } from '../stores/report';
import { useReports } from '../stores/reports';
import { navigate, pendingSearchFocus } from '../stores/router';
import { useSession } from '../stores/session';
import { usePrograms } from '../stores/programs';

/** Mirrors the events main pushes into the stores, for as long as the shell is mounted. */
export function useBridgeEvents(): void {
  useEffect(() => {
    let reloadTimer: ReturnType<typeof setTimeout> | undefined;
    const reloadSoon = (): void => {
      // Bursts of changes (a sync page) cost one list query.
      clearTimeout(reloadTimer);
      reloadTimer = setTimeout(() => void useReports.getState().reload(), 150);
    };
    const reportChanged = (reportId: string): void => {
      useReport.getState().forgetRead(reportId);
      reloadSoon();
      if (useReport.getState().reportId === reportId) void useReport.getState().reload();
    };
    const offs = [
      onBridge('status', (status) => {
        const before = useSession.getState().status;
        useSession.getState().setStatus(status);
        // A finished sync may have brought programs (first run) or account changes.
        if (before?.syncing && !status.syncing) {
          void usePrograms.getState().load();
          void useSession.getState().loadAccount();
        }
      }),
      onBridge('connectivity', ({ state }) => {
        const status = useSession.getState().status;
        if (status) useSession.getState().setStatus({ ...status, connectivity: state });
      }),
      onBridge('report-changed', ({ reportId }) => reportChanged(reportId)),
      onBridge('needs-info', ({ reportId }) => reportChanged(reportId)),
      onBridge('decision', ({ reportId }) => reportChanged(reportId)),
      onBridge('payout-changed', ({ reportId }) => reportChanged(reportId)),
      onBridge('upload-progress', (p) => useReport.getState().onProgress(p)),
      // Offline is shown by the status bar, not as an error.
      onBridge('sync-error', (error) => {
        if (!isConnectivityError(error)) reportError(error);
      }),
      onBridge('open-report', ({ reportId }) => navigate({ name: 'report', reportId })),
      onBridge('open-program', ({ programId }) => navigate({ name: 'program', programId })),
      onBridge('engine', ({ state }) => {
        const before = useSession.getState().engine;
        useSession.getState().setEngine(state);
        // Back after a restart: what is on screen may have changed meanwhile.
        if (before === 'restarting' && state === 'ready') {
          useReport.getState().forgetRead();
          void useSession.getState().refreshStatus();
          reloadSoon();
          void useReport.getState().reload();
        }
      }),
      onBridge('command', ({ name }) => {
        if (name === 'toggle-theme') usePrefs.getState().toggleTheme();
        else runCommand(name);
      }),
    ];
    return () => {
      clearTimeout(reloadTimer);
      for (const off of offs) off();
    };
  }, []);
}

/** Commands with an app-wide fallback when no screen handles them. */
export function runCommand(
  name:
    'new-report' | 'sync-now' | 'resync-everything' | 'focus-search' | 'save-now' | 'send-reply',
): void {
  if (name === 'resync-everything') {
    void resyncEverything();
    return;
  }
  if (emitCommand(name).handled) return;
  if (name === 'sync-now') {
    void syncNow();
  } else if (name === 'focus-search') {
    navigate({ name: 'reports' });
    // The reports screen focuses its searchbox when it mounts with this flag.
    pendingSearchFocus.value = true;
  } else if (name === 'new-report') {
    // A screen without its own "New report" (a program page has one): the reports screen asks
    // for the program.
    useReports.getState().setNewReport(true);
    navigate({ name: 'reports' });
  }
}

/** Every list page again, without `updated_since` (menu: Account → Resync everything). */
export const resyncEverything = (): Promise<void> => syncing(() => bridge.resyncEverything());

export const syncNow = (): Promise<void> => syncing(() => bridge.syncNow());

/** A sync the researcher asked for: a failure is reported, the status read again either way. */
async function syncing(sync: () => Promise<void>): Promise<void> {
  try {
    await sync();
  } catch (e) {
    reportError(e);
  } finally {
    void useSession.getState().refreshStatus();
  }
}
