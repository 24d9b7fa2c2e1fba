export { OutboxWorker, type OutboxWorkerOptions } from './worker';
export type { OutboxContext, Outcome } from './context';
export { reconcileDraft, acknowledgeReport } from './reconcile';
export { releaseAbandonedMessageFiles, reuseMessageFile } from './message-files';
export { sendableContent, serverHasDraft } from './sendable-content';
