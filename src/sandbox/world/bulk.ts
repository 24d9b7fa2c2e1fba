/**
 * `POST /__sandbox/bulk-reports`: many reports for one account at once (benchmarks, paging
 * tests). Deterministic: ids and contents follow from the account, the running number and the
 * share; drafts and submitted reports (final or withdrawn, so no active slot is taken), each
 * submitted one with one message from the agent or the owner team. Optionally some submitted
 * ones are left open (`needs_info` with the agent's question, or `triaging`), spread evenly, and
 * the reports can end at a time in the past (a backdated import the incremental poll cannot see).
 */
import type { ReportStatus } from '../api-types';
import { isoOf, SECOND } from '../clock';
import { stableUuid } from '../ids';
import { emptyReport, programAtSubmission } from '../state/reports';
import type { AccountRecord, ProgramRecord, ReportRecord } from '../state/types';
import type { World } from '../state/world';
import { descriptionTemplate } from '@shared/rules';

const SUBMITTED_CYCLE: ReportStatus[] = [
  'accepted',
  'rejected',
  'duplicate',
  'insufficient_info',
  'withdrawn',
];

export interface BulkOptions {
  /** Of the submitted reports, how many wait in `needs_info` and how many are `triaging`. */
  needsInfo?: number;
  triaging?: number;
  /** The reports end one second before this time (epoch ms; default now). */
  endsAt?: number;
}

export function bulkReports(
  world: World,
  account: AccountRecord,
  count: number,
  submittedShare: number,
  options: BulkOptions = {},
): number {
  const programs = [...world.programs.values()].filter((p) => p.published && !p.private);
  const now = options.endsAt ?? world.clock.now();
  const submittedTotal = Math.floor(count * submittedShare);
  const open = { needs_info: 0, triaging: 0 };
  const description = filledDescription();
  const base = world.nextSeq();
  const reports: ReportRecord[] = [];
  let submittedSoFar = 0;
  for (let i = 0; i < count; i++) {
    const program = programs[i % programs.length] as ProgramRecord;
    // Oldest first, one second apart, ending just before now.
    const ms = now - (count - i) * SECOND;
    const r = emptyReport(stableUuid(`bulk:${account.uid}:${base}:${i}`), account.uid, program, ms);
    r.title = `Bulk report ${i + 1}: ${program.name}`;
    r.asset = `https://${program.id}.example/item/${i}`;
    r.description = description;
    r.revision = 1;
    r.last_save = { from: 0, to: 1 };
    // Spread submitted reports evenly: report i is submitted when the running share says so.
    const submitted = Math.floor((i + 1) * submittedShare) > submittedSoFar;
    if (submitted) {
      submittedSoFar += 1;
      // Open ones spread evenly over the submitted ones, by the same running share.
      const share = (n: number | undefined) => (submittedSoFar * (n ?? 0)) / submittedTotal;
      let status = SUBMITTED_CYCLE[i % SUBMITTED_CYCLE.length] as ReportStatus;
      if (Math.floor(share(options.needsInfo)) > open.needs_info) {
        open.needs_info += 1;
        status = 'needs_info';
      } else if (Math.floor(share(options.triaging)) > open.triaging) {
        open.triaging += 1;
        status = 'triaging';
      }
      submit(r, program, account, ms, status, i);
    }
    reports.push(r);
  }
  world.addReports(reports);
  return count;
}

function submit(
  r: ReportRecord,
  program: ProgramRecord,
  account: AccountRecord,
  ms: number,
  status: ReportStatus,
  i: number,
): void {
  const at = isoOf(ms);
  r.submission = {
    submitted_at: at,
    attachments: {},
    content: { title: r.title, asset: r.asset, description: r.description, cvss_vector: '' },
    program: programAtSubmission(program),
    payments: { status: account.payments_status, checked_at: account.payments_checked_at },
  };
  r.submitted_at = at;
  r.submit_revision = 1;
  r.revision = 2;
  r.status = status;
  const author = status === 'withdrawn' || status === 'needs_info' ? 'agent' : 'founder';
  if (status === 'needs_info') {
    r.agent_asks = 1;
    r.revision = 3;
  } else if (status === 'triaging') {
    // Submitted, not looked at yet.
  } else if (status === 'withdrawn') {
    r.withdrawn_at = at;
    r.revision = 3;
  } else {
    r.decision = {
      outcome: status as 'accepted',
      at,
      message: `Decision for bulk report ${i + 1}.`,
    };
  }
  if (status === 'triaging') return;
  r.messages.push({
    id: stableUuid(`bulk-message:${r.id}`),
    author,
    body: `Update on bulk report ${i + 1}: ${status}.`,
    at,
    attachments: [],
  });
}

function filledDescription(): string {
  return descriptionTemplate().replace(/^(## .*)$/gm, '$1\n\nSee the steps in the title.');
}
