/**
 * The mirror's schema steps in order, one file each (`NNNN-name.ts`). A step's SQL is what users'
 * files already ran: test/store/migrations-unchanged.test.ts holds every step to its released text.
 */
import type { Migration } from './migration';
import { initialSchema } from './0001-initial-schema';
import { deferredReportIndex } from './0002-deferred-report-index';
import { oneVocabulary } from './0003-one-vocabulary';
import { pagedList } from './0004-paged-list';
import { changeCounters } from './0005-change-counters';
import { threadSeen } from './0006-thread-seen';
import { sortedListStep } from './0007-sorted-list';
import { threadCounts } from './0008-thread-counts';
import { indexMergedInSteps } from './0009-index-merged-in-steps';
import { facetedReportIndex } from './0010-faceted-report-index';
import { assetInReportIndex } from './0011-asset-in-report-index';
import { researcherTemplates } from './0012-researcher-templates';
import { mirrorCounter } from './0013-mirror-counter';
import { indexInListOrder } from './0014-index-in-list-order';
import { unusedFingerprintIndex } from './0015-unused-fingerprint-index';
import { deflatedReportDocuments } from './0016-deflated-report-documents';
import { coarserIndexBuckets } from './0017-coarser-index-buckets';
import { listIndexesAscending } from './0018-list-indexes-ascending';

export type { Migration } from './migration';

export const migrations: readonly Migration[] = [
  initialSchema,
  deferredReportIndex,
  oneVocabulary,
  pagedList,
  changeCounters,
  threadSeen,
  sortedListStep,
  threadCounts,
  indexMergedInSteps,
  facetedReportIndex,
  assetInReportIndex,
  researcherTemplates,
  mirrorCounter,
  indexInListOrder,
  unusedFingerprintIndex,
  deflatedReportDocuments,
  coarserIndexBuckets,
  listIndexesAscending,
];
