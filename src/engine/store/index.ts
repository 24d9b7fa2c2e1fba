/**
 * The offline SQLite mirror of one account: open it once, use the repositories, close it.
 */
import { join } from 'node:path';
import { silentLogger, type Logger } from '../log/logger';
import { openDatabase, type Db, type OpenOptions } from './database';
import { createAccountRepository, type AccountRepository } from './account';
import { createChangeCounters, type ChangeCounters } from './change-counters';
import { createDraftsRepository, type DraftsRepository } from './drafts';
import { createEvidenceRepository, type EvidenceRepository } from './evidence';
import { createMessagesRepository, type MessagesRepository } from './messages';
import { createOutboxRepository, type OutboxRepository } from './outbox';
import { createProgramsRepository, type ProgramsRepository } from './programs';
import { createReportIndexer, type ReportIndexer } from './fts-index';
import { createReportListRepository, type ReportListRepository } from './report-list';
import { createReportsRepository, type ReportsRepository } from './reports';
import { createSearchRepository, type SearchRepository } from './search';
import { createSyncStateRepository, type SyncStateRepository } from './sync-state';
import { createThreadsRepository, type ThreadsRepository } from './threads';
import { createTemplatesRepository, type TemplatesRepository } from './templates';
import { repairUnreadableRows } from './unreadable-rows';
import { asDamaged } from './storage-errors';
import {
  journalUnsentWork,
  restoreUnsentWork,
  type RestoredWork,
  type UnsentWorkJournal,
} from './unsent-work';

export interface Store {
  readonly db: Db;
  readonly programs: ProgramsRepository;
  readonly reports: ReportsRepository;
  /** The reports screen's list: pages, filters, counts and search in SQL. */
  readonly reportList: ReportListRepository;
  readonly messages: MessagesRepository;
  readonly account: AccountRepository;
  readonly syncState: SyncStateRepository;
  /** Bumped by triggers when what a derived view reads changes (see change-counters.ts). */
  readonly changes: ChangeCounters;
  /** Each thread's triage messages and how many were read (see threads.ts). */
  readonly threads: ThreadsRepository;
  readonly drafts: DraftsRepository;
  readonly outbox: OutboxRepository;
  readonly evidence: EvidenceRepository;
  readonly search: SearchRepository;
  /** The researcher's own description templates. */
  readonly templates: TemplatesRepository;
  /** The report search index, filled after each write commits (see fts-index.ts). */
  readonly searchIndex: ReportIndexer;
  /** The unsent work, also kept beside the mirror (see unsent-work.ts); only with a `dataDir`. */
  readonly unsentWork: UnsentWorkJournal;
  /** What was put back from the journal when the store was opened to replace a damaged file. */
  readonly restored: RestoredWork | null;
  close(): void;
}

export interface OpenStoreOptions extends OpenOptions {
  /** The account's database file (the caller picks it inside the app's data folder). */
  file: string;
  /** Folder for evidence files: `<dataDir>/evidence/<aa>/<sha256>`, and the unsent work's. */
  dataDir: string;
  /** A fresh file after a damaged one: put the journal's unsent work back before it is kept. */
  restoreUnsentWork?: boolean;
  /** Where a row that cannot be read is reported when it is repaired or dropped. */
  log?: Logger;
}

/** Where the unsent work of the mirror in `dataDir` is kept. */
export const unsentWorkDir = (dataDir: string): string => join(dataDir, 'unsent');

export function openStore(options: OpenStoreOptions): Store {
  const db = openDatabase(options.file, options);
  let unsentWork: UnsentWorkJournal;
  let restored: RestoredWork | null = null;
  try {
    const dir = unsentWorkDir(options.dataDir);
    if (options.restoreUnsentWork) restored = restoreUnsentWork(db, dir);
    unsentWork = journalUnsentWork(db, dir);
  } catch (error) {
    db.close();
    // A damaged page met while opening (the journal, the repairs) is the mirror's damage too.
    throw asDamaged(options.file, error);
  }
  const log = options.log ?? silentLogger;
  try {
    repairUnreadableRows(db, log);
  } catch (error) {
    db.close();
    throw asDamaged(options.file, error);
  }
  const searchIndex = createReportIndexer(db);
  db.onCommit(() => searchIndex.schedule());
  // A queue left by a crash (or by a close before the drain ended).
  if (searchIndex.pending() > 0) searchIndex.schedule();
  return {
    db,
    programs: createProgramsRepository(db),
    reports: createReportsRepository(db, log),
    reportList: createReportListRepository(db),
    messages: createMessagesRepository(db),
    account: createAccountRepository(db),
    syncState: createSyncStateRepository(db, log),
    changes: createChangeCounters(db),
    threads: createThreadsRepository(db),
    drafts: createDraftsRepository(db),
    outbox: createOutboxRepository(db),
    evidence: createEvidenceRepository(db, options.dataDir),
    search: createSearchRepository(db),
    templates: createTemplatesRepository(db),
    searchIndex,
    unsentWork,
    restored,
    close: () => {
      searchIndex.stop();
      unsentWork.flush();
      unsentWork.stop();
      db.close();
    },
  };
}

export { NEW_MIRROR_PAGE_SIZE, openDatabase, SchemaTooNewError } from './database';
export {
  DamagedDatabaseError,
  DiskFullError,
  DISK_FULL_SENTENCE,
  storageProblem,
  type StorageProblem,
} from './storage-errors';
export type { Db, OpenOptions } from './database';
export { migrations } from './migrations';
export type { Migration } from './migrations';
export { toFtsMatch } from './fts-query';
export { messageFingerprint } from './messages';
export type * from './account';
export type { ChangeCounters } from './change-counters';
export type * from './drafts';
export type * from './evidence';
export type * from './templates';
export type { ReportIndexer } from './fts-index';
export type * from './messages';
export type * from './outbox';
export type * from './programs';
export type * from './reports';
export type { StoredAttachment } from './report-attachments';
export type * from './report-rows';
export type * from './report-list';
export type * from './search';
export type * from './sync-state';
export type { ThreadsRepository } from './threads';
export type { RestoredWork, UnsentWorkJournal } from './unsent-work';
export type { ProgramFilters } from '@shared/rules/program-filters';
