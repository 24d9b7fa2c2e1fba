import { afterEach, beforeEach } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from '../support/random';
import { openStore, type Store } from '../../src/engine/store';
import type {
  Me,
  Message,
  Program,
  ProgramSummary,
  Report,
  ReportSummary,
} from '../../src/shared/api';
import type { ReportListQuery, ReportListRow } from '../../src/engine/store/report-list';

/** A fresh folder with a real database file; `reopen` closes and opens the same file. */
export interface TempStore {
  dir: string;
  file: string;
  store: Store;
  reopen(): Store;
  cleanup(): void;
}

export function tempStore(): TempStore {
  const dir = mkdtempSync(join(tmpdir(), 'store-test-'));
  const file = join(dir, 'account.sqlite');
  const temp: TempStore = {
    dir,
    file,
    store: openStore({ file, dataDir: dir }),
    reopen() {
      temp.store.close();
      temp.store = openStore({ file, dataDir: dir });
      return temp.store;
    },
    cleanup() {
      temp.store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return temp;
}

/**
 * A fresh temporary store for each test of the file (`tempStore`), removed after it: the boot
 * code of every store test. Read its fields inside a test; between tests there is none.
 */
export function useTempStore(): Readonly<TempStore> {
  let temp: TempStore | null = null;
  beforeEach(() => {
    temp = tempStore();
  });
  afterEach(() => temp?.cleanup());
  const now = (): TempStore => {
    if (!temp) throw new Error('The temporary store exists only while a test runs.');
    return temp;
  };
  return {
    get dir() {
      return now().dir;
    },
    get file() {
      return now().file;
    },
    get store() {
      return now().store;
    },
    reopen: () => now().reopen(),
    cleanup: () => now().cleanup(),
  };
}

export function iso(minutesAfterEpoch: number): string {
  return new Date(Date.UTC(2025, 0, 1) + minutesAfterEpoch * 60_000).toISOString();
}

/** A verified researcher with one active report and payments pending. */
export function makeMe(overrides: Partial<Me> = {}, payments: Partial<Me['payments']> = {}): Me {
  return {
    uid: 'u1',
    email: 'r@example.test',
    email_verified: true,
    active_reports: 1,
    active_limit: 5,
    payments: {
      configured: true,
      status: 'pending',
      ready: false,
      checked_at: null,
      detail: '',
      ...payments,
    },
    ...overrides,
  };
}

export function makeReport(overrides: Partial<Report> = {}): Report {
  return {
    id: randomUUID(),
    program_id: 'acme-web',
    program_name: 'Acme Web',
    status: 'draft',
    display_status: 'Draft',
    title: 'Stored XSS in profile name',
    revision: 1,
    created_at: iso(0),
    updated_at: iso(1),
    submitted_at: null,
    withdrawn_at: null,
    asset: 'https://acme.example/profile',
    description: '## Steps to reproduce\n\nSet the name to a script tag.',
    cvss_vector: '',
    attachments: {},
    submission: null,
    decision: null,
    payout: null,
    ...overrides,
  };
}

export function summaryOf(report: Report, overrides: Partial<ReportSummary> = {}): ReportSummary {
  return {
    id: report.id,
    program_id: report.program_id,
    program_name: report.program_name,
    status: report.status,
    display_status: report.display_status,
    title: report.title,
    revision: report.revision,
    created_at: report.created_at,
    updated_at: report.updated_at,
    submitted_at: report.submitted_at,
    withdrawn_at: report.withdrawn_at,
    ...overrides,
  };
}

export function makeProgramSummary(overrides: Partial<ProgramSummary> = {}): ProgramSummary {
  return {
    id: 'acme-web',
    name: 'Acme Web',
    customer_name: 'Acme Inc.',
    intake: 'open',
    demo: false,
    summary: 'The main web shop.',
    asset_types: ['web'],
    reward_range: { min: 100, max: 2000, currency: 'USD' },
    rewards: { low: 100, medium: 500, high: 1000, critical: 2000 },
    policy_version: 1,
    updated_at: iso(0),
    private: false,
    pool_paused: false,
    ...overrides,
  };
}

export function makeProgram(overrides: Partial<Program> = {}): Program {
  return {
    ...makeProgramSummary(overrides),
    description: 'Acme sells anvils.',
    scope: 'acme.example and its subdomains',
    exclusions: 'Denial of service',
    rules: 'No social engineering',
    eligibility: 'Everyone',
    disclosure: 'Coordinated, 90 days',
    ...overrides,
  };
}

export function makeMessage(overrides: Partial<Message> = {}): Message {
  return {
    id: randomUUID(),
    author: 'agent',
    body: 'Please send the exact request.',
    at: iso(5),
    attachments: [],
    ...overrides,
  };
}

/** Rows of the reports list from the top: the one list path (`store.reportList`). */
export function listed(
  store: Store,
  query: Omit<ReportListQuery, 'offset'> & { offset?: number },
): ReportListRow[] {
  return store.reportList.page({ offset: 0, ...query }).rows;
}
