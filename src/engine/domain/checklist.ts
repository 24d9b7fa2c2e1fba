/**
 * The submit checklist: the preconditions of `POST /api/reports/{id}/submit` (part 4), in the
 * document's order, each named by the error code the server would answer. Computed from plain
 * inputs; an input that is not known yet (null) fails its item with a detail that says so, since
 * the client cannot promise the server will agree.
 *
 * Stricter than the server on purpose in one place: a failed upload (local or server side) also
 * fails `files_pending`, so the researcher retries or removes it before submitting.
 */
import type { Attachment, Me, PaymentsStatus, ProgramSummary } from '@shared/api/index';
import { LIMITS } from '@shared/api/index';
import type { ChecklistItemView, ChecklistView } from '@shared/bridge/views';
import { checkDescription } from '@shared/rules/index';
import type { DraftContent } from '@shared/bridge/views';

export type ChecklistId =
  | 'email_unverified'
  | 'payments_not_ready'
  | 'incomplete_report'
  | 'files_pending'
  | 'program_closed'
  | 'pool_low'
  | 'active_limit';

export const CHECKLIST_IDS: readonly ChecklistId[] = [
  'email_unverified',
  'payments_not_ready',
  'incomplete_report',
  'files_pending',
  'program_closed',
  'pool_low',
  'active_limit',
];

export interface ChecklistItem extends ChecklistItemView {
  id: ChecklistId;
}

export interface Checklist extends ChecklistView {
  items: ChecklistItem[];
}

/** A file the client has not finished sending (draft evidence, not message files). */
export interface LocalUpload {
  name: string;
  state: 'queued' | 'uploading' | 'uploaded' | 'failed';
}

export interface ChecklistInput {
  me: Pick<Me, 'email' | 'email_verified' | 'active_reports' | 'active_limit' | 'payments'> | null;
  /** A fresher payments status (GET /api/payments/status) than `me.payments`, when there is one. */
  payments?: Pick<PaymentsStatus, 'status' | 'ready' | 'detail'> | null;
  program: Pick<ProgramSummary, 'name' | 'intake' | 'pool_paused'> | null;
  content: DraftContent;
  /** The server's attachments of the report (`Report.attachments`), if any. */
  attachments?: Record<string, Pick<Attachment, 'name' | 'state' | 'reply'>> | null;
  /** Local evidence of the draft that is not (yet) a ready attachment. */
  uploads?: readonly LocalUpload[];
  /** Active reports counted locally; defaults to `me.active_reports`. */
  activeReports?: number | null;
}

const NOT_KNOWN = 'Not known yet: refresh when online.';

function list(names: string[]): string {
  return names.map((n) => `“${n}”`).join(', ');
}

type ItemBase = Omit<ChecklistItem, 'ok' | 'detail'>;

/** An item that one fact settles; a fact not known yet (never fetched, offline) fails it. */
function factItem(
  base: ItemBase,
  fact: { ok: boolean; passed: string; failed: string } | null,
): ChecklistItem {
  if (!fact) return { ...base, ok: false, detail: NOT_KNOWN };
  return { ...base, ok: fact.ok, detail: fact.ok ? fact.passed : fact.failed };
}

/** Each item's words: what it checks, and what to do when it fails. */
const WORDS = {
  email_unverified: {
    label: 'E-mail address verified',
    fix: 'Open the verification link sent to your e-mail address, or send a new link from Account.',
  },
  payments_not_ready: {
    label: 'Payout account ready',
    fix: 'Finish the payment provider onboarding in your browser (Account → Payouts), then refresh.',
  },
  incomplete_report: {
    label: 'Report complete',
    fix: 'Fill in the title and the asset, and write text under each template heading.',
  },
  files_pending: {
    label: 'Evidence uploaded',
    fix: 'Wait for the uploads to finish; retry or remove a failed file.',
  },
  program_closed: {
    label: 'Program accepts reports',
    fix: 'Wait until the program opens again, or report to another program.',
  },
  pool_low: {
    label: 'Program reward pool available',
    fix: 'Keep the draft and submit when the program resumes new reports.',
  },
  active_limit: {
    label: 'Active reports',
    fix: 'Wait for a decision on one of your active reports, or withdraw one.',
  },
} as const;

function itemBase(id: keyof typeof WORDS, label: string = WORDS[id].label): ItemBase {
  return { id, label, fix: WORDS[id].fix };
}

/** An item that fails with every problem found, said as one sentence. */
function problemsItem(base: ItemBase, problems: string[], passed: () => string): ChecklistItem {
  if (problems.length === 0) return { ...base, ok: true, detail: passed() };
  const detail = problems.join('; ');
  return { ...base, ok: false, detail: detail.charAt(0).toUpperCase() + detail.slice(1) + '.' };
}

function emailItem(me: ChecklistInput['me']): ChecklistItem {
  const base = itemBase('email_unverified');
  return factItem(
    base,
    me && {
      ok: me.email_verified,
      passed: `${me.email ?? 'Your address'} is verified.`,
      failed: `${me.email ?? 'Your address'} is not verified yet.`,
    },
  );
}

function paymentsItem(input: ChecklistInput): ChecklistItem {
  const base = itemBase('payments_not_ready');
  const payments = input.payments ?? input.me?.payments ?? null;
  if (!payments) return { ...base, ok: false, detail: NOT_KNOWN };
  if (payments.status === 'ready' && payments.ready !== false) {
    // Not "Your payout account is ready." under "Payout account ready" (walk 19).
    return { ...base, ok: true, detail: 'Rewards can be paid out to you.' };
  }
  const why =
    payments.status === 'unavailable'
      ? 'The payment provider could not be reached; try again later.'
      : `Payout account status: ${payments.status.replaceAll('_', ' ')}.`;
  return {
    ...base,
    ok: false,
    detail: payments.detail ? `${why} ${payments.detail}` : why,
  };
}

function completeItem(content: DraftContent): ChecklistItem {
  const base = itemBase('incomplete_report');
  const problems: string[] = [];
  if (content.title.trim() === '') problems.push('the title is empty');
  if (content.asset.trim() === '') problems.push('the asset is empty');
  const check = checkDescription(content.description);
  const missing = check.sections.filter((s) => !s.present).map((s) => s.heading);
  const empty = check.sections.filter((s) => s.present && !s.hasText).map((s) => s.heading);
  if (missing.length > 0) problems.push(`missing heading ${list(missing)}`);
  if (empty.length > 0) problems.push(`no text under ${list(empty)}`);
  return problemsItem(
    base,
    problems,
    () => 'Title, asset and every template section are filled in.',
  );
}

function filesItem(input: ChecklistInput): ChecklistItem {
  const base = itemBase('files_pending');
  const serverFiles = Object.values(input.attachments ?? {}).filter((a) => a.reply !== true);
  const local = input.uploads ?? [];
  // Queued: waiting its turn (behind the draft's save, or a credential check the researcher
  // answers); uploading: bytes on their way. Neither has failed.
  const queued = local.filter((u) => u.state === 'queued').map((u) => u.name);
  const uploading = [
    ...serverFiles.filter((a) => a.state === 'uploading').map((a) => a.name),
    ...local.filter((u) => u.state === 'uploading').map((u) => u.name),
  ];
  const failed = [
    ...serverFiles.filter((a) => a.state === 'failed').map((a) => a.name),
    ...local.filter((u) => u.state === 'failed').map((u) => u.name),
  ];
  const problems: string[] = [];
  if (uploading.length > 0) problems.push(`still uploading: ${list(uploading)}`);
  if (queued.length > 0) problems.push(`not sent yet: ${list(queued)}`);
  if (failed.length > 0) problems.push(`upload failed: ${list(failed)}`);
  const item = problemsItem(base, problems, () => {
    const n = serverFiles.filter((a) => a.state === 'ready').length;
    // "Evidence uploaded: passed" with no file read as if something was (a walk).
    return n === 0
      ? 'No files attached: nothing to upload.'
      : `${n} file${n === 1 ? '' : 's'} uploaded.`;
  });
  if (item.ok || failed.length > 0) return item;
  // Nothing failed: there is nothing to retry or remove, and a file not sent yet does not go by
  // waiting alone while the app is offline or the credentials check holds the draft.
  const fix =
    queued.length > 0
      ? 'Nothing to retry: a file not sent yet goes after the changes to the draft, once the server answers and each credential found is redacted or kept.'
      : 'Wait for the uploads to finish.';
  return { ...item, fix, waiting: true };
}

function intakeItem(program: ChecklistInput['program']): ChecklistItem {
  const base = itemBase('program_closed');
  return factItem(
    base,
    program && {
      ok: program.intake === 'open',
      passed: `${program.name} is open for reports.`,
      failed: `${program.name} is ${program.intake} for new reports.`,
    },
  );
}

function poolItem(program: ChecklistInput['program']): ChecklistItem {
  const base = itemBase('pool_low');
  return factItem(
    base,
    program && {
      ok: !program.pool_paused,
      // Said of the pool: "takes new reports" repeated the line above it (walk 19).
      passed: `${program.name}'s reward pool has not paused new reports.`,
      failed: `${program.name} paused new reports because its reward pool is low.`,
    },
  );
}

function activeItem(input: ChecklistInput): ChecklistItem {
  const limit = input.me?.active_limit ?? LIMITS.activeReports;
  const active = input.activeReports ?? input.me?.active_reports ?? null;
  const base = itemBase('active_limit', `${WORDS.active_limit.label} ${active ?? '?'}/${limit}`);
  return factItem(
    base,
    active === null
      ? null
      : {
          ok: active < limit,
          // The label says "2/5" already (walk 19): the detail says what is left.
          passed: `Room for ${limit - active} more active report${limit - active === 1 ? '' : 's'}.`,
          failed: `All ${limit} active-report slots are in use (${active}/${limit}).`,
        },
  );
}

export function submitChecklist(input: ChecklistInput): Checklist {
  const items: ChecklistItem[] = [
    emailItem(input.me),
    paymentsItem(input),
    completeItem(input.content),
    filesItem(input),
    intakeItem(input.program),
    poolItem(input.program),
    activeItem(input),
  ];
  return { ok: items.every((i) => i.ok), items };
}
