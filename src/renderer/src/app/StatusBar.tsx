import { useSession } from '../stores/session';
import { formatMirror, formatTime } from '../lib/format';
import { syncNow } from './useBridgeEvents';
import { syncAnnouncement } from './sync-announcement';

const CONNECTIVITY_TEXT = { online: 'Online', offline: 'Offline', unknown: 'Connecting' } as const;

/**
 * Nothing asked of the server yet since the engine started (it synced less than a poll ago):
 * "Connecting" would say something is under way when nothing is. Only the last sync is shown.
 */
const unasked = (connectivity: string, syncing: boolean | undefined): boolean =>
  connectivity === 'unknown' && !syncing;

/**
 * Online state, last sync, unsent changes, unread triage messages, reports needing action and the
 * request budget. Offline is a state the app works in, shown calmly (work is kept and sent later).
 */
export function StatusBar() {
  const status = useSession((s) => s.status);
  const engine = useSession((s) => s.engine);
  const connectivity = status?.connectivity ?? 'unknown';
  return (
    <div className="status-bar">
      <p className="visually-hidden" aria-live="polite" aria-atomic="true">
        {syncAnnouncement(status, engine, formatTime)}
      </p>
      <div role="status" aria-label="Connection" aria-live="off" className="status-items">
        {engine === 'restarting' ? (
          <span className="conn conn-unknown">Reconnecting to the engine…</span>
        ) : unasked(connectivity, status?.syncing) ? null : (
          <span
            className={`conn conn-${connectivity}`}
            title={
              connectivity === 'offline'
                ? 'Your changes are kept on this computer and sent when the server answers.'
                : undefined
            }
          >
            {CONNECTIVITY_TEXT[connectivity]}
          </span>
        )}
        {/* Until the engine's status is in (the first frames after start) nothing is known:
            "Last sync: never" and zero counts would be claims, often false. */}
        {status ? (
          <>
            {/* Offline, a sync only tries to reach the server: "Offline" says all there is. */}
            {status.syncing && connectivity !== 'offline' ? <span>Syncing…</span> : null}
            {status.mirror ? (
              <span className="mirror-progress">{formatMirror(status.mirror)}</span>
            ) : null}
            <span>Last sync: {status.lastSyncAt ? formatTime(status.lastSyncAt) : 'never'}</span>
            <span>{status.unsent} unsent</span>
            <span>{status.unread} unread</span>
            <span>{status.needsAction} need your action</span>
            <span title="The server allows this many requests per minute; past it, the app waits and goes on by itself">
              Server requests this minute: {status.budget.used} of {status.budget.limit}
            </span>
          </>
        ) : null}
      </div>
      <button type="button" onClick={() => void syncNow()} disabled={status?.syncing ?? false}>
        Sync now
      </button>
    </div>
  );
}
