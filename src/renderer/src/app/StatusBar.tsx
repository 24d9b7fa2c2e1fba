import { countOf, formatCount } from '@shared/words/count';
import { useSession } from '../stores/session';
import { formatMirror, formatTime } from '../lib/format';
import { syncNow } from './useBridgeEvents';
import { syncAnnouncement } from './sync-announcement';

/** The status bar's word for a sync under way, which "Sync now" points to meanwhile. */
const SYNC_UNDER_WAY = 'sync-under-way';

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
  const syncing = status?.syncing ?? false;
  // Offline, a sync only tries to reach the server: said to screen readers and on hover of the
  // dimmed "Sync now", not beside "Offline", which says all there is to the eye.
  const underWay = syncing
    ? connectivity === 'offline'
      ? { text: 'Trying to reach the service', shown: false }
      : { text: 'Syncing…', shown: true }
    : null;
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
            {/* "Sync now" is described by it meanwhile. */}
            {underWay ? (
              <span id={SYNC_UNDER_WAY} className={underWay.shown ? undefined : 'visually-hidden'}>
                {underWay.text}
              </span>
            ) : null}
            {status.mirror ? (
              <span className="mirror-progress">{formatMirror(status.mirror)}</span>
            ) : null}
            <span>Last sync: {status.lastSyncAt ? formatTime(status.lastSyncAt) : 'never'}</span>
            {/* Changes, not reports: a save and a submit of one draft are two (walk 18). */}
            <span>{countOf(status.unsent, 'unsent change')}</span>
            <span>{formatCount(status.unread)} unread</span>
            <span>
              {formatCount(status.needsAction)} {status.needsAction === 1 ? 'needs' : 'need'} your
              action
            </span>
            <span title="The server allows this many requests per minute; past it, the app waits and goes on by itself">
              Server requests this minute: {status.budget.used} of {status.budget.limit}
            </span>
          </>
        ) : null}
      </div>
      {/* Not `disabled` while a sync runs: a disabled button drops the keyboard focus to the
          page, from the researcher who just pressed it. */}
      <button
        type="button"
        aria-disabled={syncing || undefined}
        aria-describedby={underWay ? SYNC_UNDER_WAY : undefined}
        title={underWay?.text}
        onClick={() => {
          if (!syncing) void syncNow();
        }}
      >
        Sync now
      </button>
    </div>
  );
}
