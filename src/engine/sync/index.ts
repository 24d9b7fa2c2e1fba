export {
  SyncScheduler,
  DEFAULT_CADENCES,
  type Cadences,
  type SchedulerHooks,
  type SyncJob,
} from './scheduler';
export { pollReports, INLINE_BACKLOG, type PollResult } from './report-poller';
export { fetchReports, hasThread } from './report-fetcher';
export { fetchBacklog, mirrorProgress, type MirrorProgress } from './mirror';
export { followPayouts, refreshPrograms, refreshAccount } from './follow-ups';
export { inboxItems, markThreadSeen, startThreadCount } from './inbox';
export type { SyncContext } from './context';
