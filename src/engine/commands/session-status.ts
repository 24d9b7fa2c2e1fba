/**
 * The status bar's view of a session: connectivity, sync, the outbox's counts, the inbox, the
 * request budget, the first mirror's progress and the state of the disk and the mirror file.
 */
import type { ErrorView, MirrorView, StatusView } from '@shared/bridge/views';
import type { ResearcherApi } from '../api';
import type { Store } from '../store';
import type { MirrorRecovery } from '../store/open-mirror';
import { inboxItems, mirrorProgress } from '../sync';

/** What the session knows beyond its store and API. */
export interface SessionState {
  syncing: boolean;
  lastSyncAt: string | null;
  lastError: ErrorView | null;
  diskFull: boolean;
  recovery: MirrorRecovery | null;
}

export function sessionStatus(store: Store, api: ResearcherApi, state: SessionState): StatusView {
  const entries = store.outbox.list();
  const budget = api.budget.snapshot();
  const inbox = inboxItems(store);
  const stopped = new Set(entries.filter((e) => e.state === 'parked').map((e) => e.reportId));
  const waiting = new Set(stopped);
  for (const item of inbox) if (item.needsInfo) waiting.add(item.reportId);
  const { recovery } = state;
  return {
    connectivity: api.connectivity.state,
    syncing: state.syncing,
    lastSyncAt: state.lastSyncAt ?? store.syncState.getLastSync('reports'),
    unsent: entries.filter((e) => e.state !== 'done').length,
    held: entries.filter((e) => e.state !== 'done' && stopped.has(e.reportId)).length,
    needsAction: waiting.size,
    unread: inbox.reduce((sum, item) => sum + item.unread, 0),
    inbox,
    budget: { used: budget.used, limit: api.budget.limit },
    lastError: state.lastError,
    mirror: mirrorView(store, api),
    storage: {
      diskFull: state.diskFull,
      recovered: recovery
        ? {
            keptAs: recovery.keptAs,
            at: recovery.at,
            drafts: recovery.restored.drafts,
            changes: recovery.restored.entries,
          }
        : null,
      newerData: null,
    },
  };
}

function mirrorView(store: Store, api: ResearcherApi): MirrorView | null {
  const progress = mirrorProgress({ store });
  if (!progress) return null;
  // The rate the budget grants background work under the service's limit.
  const budget = api.budget;
  const perSecond = budget.ceiling('prefetch') / (budget.windowMs / 1000);
  return {
    total: progress.total,
    downloaded: progress.downloaded,
    secondsLeft: Math.ceil(progress.remainingRequests / perSecond),
  };
}
