import type { StatusView } from '@shared/bridge/views';
import type { EngineState } from '@shared/bridge/contract';

/**
 * The one sentence a screen reader hears about syncing. The status bar itself changes every
 * second (the request budget), so it is not a live region; this sentence changes only when the
 * state does, and the live region speaks it once.
 */
export function syncAnnouncement(
  status: StatusView | null,
  engine: EngineState,
  formatTime: (iso: string) => string,
): string {
  if (engine === 'restarting') return 'Reconnecting to the engine…';
  if (!status) return '';
  if (status.connectivity === 'offline')
    return 'Offline. Your changes are kept on this computer and sent when the server answers.';
  if (status.syncing) return 'Syncing…';
  if (status.lastError) return `Sync failed: ${status.lastError.title}.`;
  if (status.lastSyncAt) return `Synced at ${formatTime(status.lastSyncAt)}.`;
  return '';
}
