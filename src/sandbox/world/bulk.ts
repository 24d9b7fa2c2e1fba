/**
 * `POST /__sandbox/bulk-reports`: many reports for one account at once (benchmarks, paging
 * tests). Deterministic: ids and contents follow from the account, the running number and the
 * share; drafts and submitted reports (final or withdrawn, so no active slot is taken), each
 * submitted one with one message from the agent or the owner team.
 */
import type { ReportStatus } from '../api-types';
import { isoOf, SECOND } from '../clock';
import { stableUuid } from '../ids';
import { emptyReport } from '../state/reports';
import type { AccountRecord, ProgramRecord, ReportRecord } from '../state/types';
import type { World } from '../state/world';
import { descriptionTemplate } from '../../shared/rules';

const SUBMITTED_CYCLE: ReportStatus[] = [
  'accepted',
  'rejected',
  'duplicate',
  'insufficient_info',
  'withdrawn',
];

export function bulkReports(
  world: World,
  account: AccountRecord,
  count: number,
  submittedShare: number,
): number {
  const programs = [...world.programs.values()].filter((p) => p.published && !p.private);
  const now = world.clock.now();
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
      submit(
        r,
        program,
        account,
        ms,
        SUBMITTED_CYCLE[i % SUBMITTED_CYCLE.length] as ReportStatus,
        i,
      );
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
    program: {
      policy_version: program.policy_version,
      name: program.name,
      scope: program.scope,
      exclusions: program.exclusions,
      rules: program.rules,
      eligibility: program.eligibility,
      disclosure: program.disclosure,
      rewards: program.rewards,
    },
    payments: { status: account.payments_status, checked_at: account.payments_checked_at },
  };
  r.submitted_at = at;
  r.submit_revision = 1;
  r.revision = 2;
  r.status = status;
  const author = status === 'withdrawn' ? 'agent' : 'founder';
  if (status === 'withdrawn') {
    r.withdrawn_at = at;
    r.revision = 3;
  } else {
    r.decision = {
      outcome: status as 'accepted',
      at,
      message: `Decision for bulk report ${i + 1}.`,
    };
  }
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
