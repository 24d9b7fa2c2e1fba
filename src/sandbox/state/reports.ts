/**
 * The report state machine of part 3 of the API document: draft save, submit, withdraw,
 * messages, and the moves of the triage agent and the owner team. Routes stay thin; every rule
 * and its error code lives here.
 */
import type {
  Attachment,
  DecisionOutcome,
  Message,
  MessageAuthor,
  Payout,
  PayoutStatus,
  ReportInput,
  ReportStatus,
} from '../api-types';
import { ApiError, invalidState, notFound } from '../errors';
import { isoOf } from '../clock';
import { newUuid } from '../ids';
import { checkDescription, findFileLinks } from '@shared/rules';
import { toReport } from './serialize';
import type { AccountRecord, ProgramRecord, ReportRecord } from './types';
import { LIMITS, REPORT_STATUSES, isFinalDecision, isTerminalStatus } from '@shared/api';
import type { World } from './world';

export const revisionConflict = (report: ReportRecord): ApiError =>
  new ApiError(409, 'revision_conflict', 'The report changed since your last read.', {
    current: toReport(report),
  });

export function requireVerified(account: AccountRecord): void {
  if (!account.email_verified) {
    throw new ApiError(403, 'email_unverified', 'Verify your e-mail address first.');
  }
}

/** Programs a caller may see: published, and private ones only for invited verified accounts. */
export function canSeeProgram(program: ProgramRecord, account: AccountRecord | undefined): boolean {
  if (!program.published) return false;
  if (!program.private) return true;
  return !!account && account.email_verified && program.invited.includes(account.uid);
}

export function emptyReport(
  id: string,
  uid: string,
  program: ProgramRecord,
  ms: number,
): ReportRecord {
  const at = isoOf(ms);
  return {
    id,
    uid,
    program_id: program.id,
    program_name: program.name,
    status: 'draft',
    title: '',
    revision: 0,
    created_at: at,
    updated_at: at,
    updated_ms: ms,
    submitted_at: null,
    withdrawn_at: null,
    asset: '',
    description: '',
    cvss_vector: '',
    attachments: {},
    submission: null,
    decision: null,
    payout: null,
    messages: [],
    last_save: null,
    submit_revision: null,
    agent_asks: 0,
  };
}

const sameContent = (r: ReportRecord, input: ReportInput): boolean =>
  r.program_id === input.program_id &&
  r.title === input.title &&
  r.asset === input.asset &&
  r.description === input.description &&
  r.cvss_vector === (input.cvss_vector ?? '');

/** Rule 5 of the draft save: every file link must name a ready file of this report. */
function checkFileLinks(report: ReportRecord, description: string): void {
  for (const link of findFileLinks(description)) {
    const file = report.attachments[link.fileId];
    const ok = link.reportId === report.id && file?.state === 'ready' && !file.reply;
    if (!ok) {
      throw new ApiError(
        422,
        'invalid_file_reference',
        `description: the link to /reports/${link.reportId}/files/${link.fileId} is not a ready file of this report`,
      );
    }
  }
}

/** `PUT /api/reports/{id}`: create a draft (revision 0, new id) or save one. */
export function saveReport(
  world: World,
  account: AccountRecord,
  reportId: string,
  input: ReportInput,
): ReportRecord {
  requireVerified(account);
  const existing = world.reports.get(reportId);
  if (existing && existing.uid !== account.uid) throw notFound('Report not found.');
  if (!existing) {
    const program = world.programs.get(input.program_id);
    if (!program || !canSeeProgram(program, account)) throw notFound('Program not found.');
    if (input.revision !== 0) {
      throw new ApiError(422, 'validation_error', 'revision: must be 0 to create a report');
    }
    const report = emptyReport(reportId, account.uid, program, world.stamp());
    checkFileLinks(report, input.description);
    world.addReport(report);
    return applySave(world, report, input);
  }
  const r = existing;
  // A repeat of the last save (same body, same revision) is answered with the stored report.
  if (r.last_save && r.last_save.from === input.revision && r.last_save.to === r.revision) {
    if (sameContent(r, input)) return r;
  }
  if (r.status !== 'draft')
    throw invalidState(`Only a draft can be edited; this report is ${r.status}.`);
  if (r.program_id !== input.program_id) {
    throw invalidState('program_id: cannot change after the report was created');
  }
  if (r.revision !== input.revision) throw revisionConflict(r);
  checkFileLinks(r, input.description);
  return applySave(world, r, input);
}

function applySave(world: World, r: ReportRecord, input: ReportInput): ReportRecord {
  const from = input.revision;
  r.title = input.title;
  r.asset = input.asset;
  r.description = input.description;
  r.cvss_vector = input.cvss_vector ?? '';
  r.revision += 1;
  r.last_save = { from, to: r.revision };
  world.touch(r);
  return r;
}

/** `POST /api/reports/{id}/submit`. */
export function submitReport(
  world: World,
  account: AccountRecord,
  reportId: string,
  revision: number,
): ReportRecord {
  requireVerified(account);
  const r = world.reportOf(account.uid, reportId);
  if (!r) throw notFound('Report not found.');
  if (r.submission) {
    // Already submitted: the same revision (or the current one) is a safe repeat.
    if (revision === r.submit_revision || revision === r.revision) return r;
    throw revisionConflict(r);
  }
  if (r.status !== 'draft') throw invalidState(`A ${r.status} report cannot be submitted.`);
  if (r.revision !== revision) throw revisionConflict(r);
  if (account.payments_status !== 'ready') {
    throw new ApiError(403, 'payments_not_ready', 'Connect a payout account before submitting.');
  }
  const missing: string[] = [];
  if (!r.title.trim()) missing.push('title');
  if (!r.asset.trim()) missing.push('asset');
  if (!checkDescription(r.description).complete) missing.push('description');
  if (missing.length) {
    throw new ApiError(
      422,
      'incomplete_report',
      `${missing.join(', ')}: required for submission (the description needs text below each template heading)`,
    );
  }
  if (Object.values(r.attachments).some((a) => a.state === 'uploading' || a.state === 'deleting')) {
    throw new ApiError(409, 'files_pending', 'Wait until every file upload has finished.');
  }
  const program = world.programs.get(r.program_id);
  if (!program || !program.published || program.intake !== 'open') {
    throw new ApiError(409, 'program_closed', 'The program does not accept reports now.');
  }
  if (program.pool_paused) {
    throw new ApiError(409, 'pool_low', 'The program paused new reports (reward pool low).');
  }
  if (world.activeReports(account.uid) >= LIMITS.activeReports) {
    throw new ApiError(
      409,
      'active_limit',
      `You already have ${LIMITS.activeReports} active reports.`,
    );
  }
  const ms = world.stamp();
  const at = isoOf(ms);
  const ready: Record<string, Attachment> = {};
  for (const [id, a] of Object.entries(r.attachments)) {
    if (a.state === 'ready') ready[id] = { ...a };
  }
  r.submission = {
    submitted_at: at,
    attachments: ready,
    content: {
      title: r.title,
      asset: r.asset,
      description: r.description,
      cvss_vector: r.cvss_vector,
    },
    program: programAtSubmission(program),
    payments: { status: account.payments_status, checked_at: account.payments_checked_at },
  };
  r.submit_revision = revision;
  r.submitted_at = at;
  return researcherMove(world, r, 'triaging', ms);
}

/**
 * `POST /api/reports/{id}/withdraw`. Sandbox choice for a draft (not shown in the document): it is
 * withdrawn too, which is how a draft is discarded.
 */
export function withdrawReport(
  world: World,
  account: AccountRecord,
  reportId: string,
): ReportRecord {
  const r = world.reportOf(account.uid, reportId);
  if (!r) throw notFound('Report not found.');
  if (r.status === 'withdrawn') return r;
  if (isFinalDecision(r.status)) {
    throw invalidState('A report with a final decision cannot be withdrawn.');
  }
  const ms = world.stamp();
  r.withdrawn_at = isoOf(ms);
  return researcherMove(world, r, 'withdrawn', ms);
}

/**
 * A move of the researcher's own (submit, withdraw): unlike the agent's and the team's moves, it
 * makes a new revision of the report.
 */
function researcherMove(
  world: World,
  r: ReportRecord,
  status: ReportStatus,
  ms: number,
): ReportRecord {
  r.revision += 1;
  world.setStatus(r, status);
  world.touch(r, ms);
  return r;
}

export function addMessage(
  world: World,
  r: ReportRecord,
  author: MessageAuthor,
  body: string,
  fileIds: string[] = [],
  ms = world.clock.now(),
): Message {
  const id = newUuid();
  const message: Message = {
    id,
    author,
    body,
    at: isoOf(ms),
    attachments: fileIds.map((fid) => {
      const a = r.attachments[fid] as Attachment;
      a.message_id = id;
      return { id: fid, name: a.name, size: a.size, content_type: a.content_type };
    }),
  };
  r.messages.push(message);
  return message;
}

/**
 * `POST /api/reports/{id}/messages`. Sandbox choice (not shown): a message on a draft, a withdrawn
 * report or after a final decision gives `409 invalid_state`.
 */
export function postResearcherMessage(
  world: World,
  account: AccountRecord,
  reportId: string,
  body: string,
  files: string[],
): { report: ReportRecord; startedTurn: boolean } {
  requireVerified(account);
  const r = world.reportOf(account.uid, reportId);
  if (!r) throw notFound('Report not found.');
  if (r.status === 'draft') throw invalidState('Submit the report before posting messages.');
  if (isTerminalStatus(r.status))
    throw invalidState(`The report is ${r.status}; the thread is closed.`);
  const unique = [...new Set(files)];
  for (const fid of unique) {
    const a = r.attachments[fid];
    if (!a || !a.reply || a.message_id || a.state !== 'ready') {
      throw new ApiError(
        409,
        'file_not_ready',
        `files: ${fid} is not an uploaded, ready message file`,
      );
    }
  }
  const startedTurn = r.status === 'needs_info';
  if (startedTurn) {
    const ms = world.stamp();
    addMessage(world, r, 'researcher', body, unique, ms);
    world.setStatus(r, 'triaging');
    world.touch(r, ms);
  } else {
    addMessage(world, r, 'researcher', body, unique);
  }
  return { report: r, startedTurn };
}

/** The statuses a control move may set: every one but the researcher's own (draft, withdrawn). */
export const ACT_STATUSES: readonly ReportStatus[] = REPORT_STATUSES.filter(
  (s) => s !== 'draft' && s !== 'withdrawn',
);

/** A move by the triage agent or the owner team: optional message, new status, decision. */
export function act(
  world: World,
  r: ReportRecord,
  actor: 'agent' | 'founder',
  status: ReportStatus,
  message: string | null,
): ReportRecord {
  const ms = world.stamp();
  if (message !== null) addMessage(world, r, actor, message, [], ms);
  world.setStatus(r, status);
  if (isFinalDecision(status)) {
    r.decision = { outcome: status as DecisionOutcome, at: isoOf(ms), message };
  }
  world.touch(r, ms);
  return r;
}

const PAYOUT_STAMP: Record<PayoutStatus, keyof Payout> = {
  approving: 'approved_at',
  transferred: 'transferred_at',
  received: 'received_at',
  payout_failed: 'payout_failed_at',
};

/** Creates or moves the payout. Payout progress does not change `updated_at` (part 6). */
export function setPayout(
  world: World,
  r: ReportRecord,
  status: PayoutStatus,
  amountCents: number | undefined,
): Payout {
  const at = world.clock.iso();
  const payout: Payout = r.payout ?? {
    status,
    amount_cents: amountCents ?? 0,
    approved_at: null,
    transferred_at: null,
    received_at: null,
    payout_failed_at: null,
  };
  payout.status = status;
  if (amountCents !== undefined) payout.amount_cents = amountCents;
  // Steps before the new one happened too (a payout created as `received` was approved and sent).
  const order: PayoutStatus[] = ['approving', 'transferred', 'received'];
  const upTo = status === 'payout_failed' ? 0 : order.indexOf(status);
  for (const step of order.slice(0, upTo + 1)) {
    const field = PAYOUT_STAMP[step];
    if (payout[field] === null) (payout as unknown as Record<string, unknown>)[field] = at;
  }
  if (status === 'payout_failed') payout.payout_failed_at = at;
  r.payout = payout;
  return payout;
}

/** The policy a submission was made under, as the report keeps it. */
export function programAtSubmission(program: ProgramRecord) {
  return {
    policy_version: program.policy_version,
    name: program.name,
    scope: program.scope,
    exclusions: program.exclusions,
    rules: program.rules,
    eligibility: program.eligibility,
    disclosure: program.disclosure,
    rewards: { ...program.rewards },
  };
}
