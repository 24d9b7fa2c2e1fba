/** Stored records to the response shapes of part 2 of the API document. */
import type {
  ApiKey,
  PaymentsStatus,
  Program,
  ProgramSummary,
  Report,
  ReportStatus,
  ReportSummary,
} from '../api-types';
import { isoOf } from '../clock';
import type { AccountRecord, KeyRecord, ProgramRecord, ReportRecord } from './types';

/** Labels for `display_status` (values not shown in the API document: the sandbox's choice). */
export const DISPLAY_STATUS: Record<ReportStatus, string> = {
  draft: 'Draft',
  triaging: 'In triage',
  needs_info: 'Needs your input',
  paused: 'Paused',
  human_review: 'In review',
  accepted: 'Accepted',
  rejected: 'Rejected',
  duplicate: 'Duplicate',
  insufficient_info: 'Insufficient info',
  withdrawn: 'Withdrawn',
};

export function toSummary(r: ReportRecord): ReportSummary {
  return {
    id: r.id,
    program_id: r.program_id,
    program_name: r.program_name,
    status: r.status,
    display_status: DISPLAY_STATUS[r.status],
    title: r.title,
    revision: r.revision,
    created_at: r.created_at,
    updated_at: r.updated_at,
    submitted_at: r.submitted_at,
    withdrawn_at: r.withdrawn_at,
  };
}

export function toReport(r: ReportRecord): Report {
  return {
    ...toSummary(r),
    asset: r.asset,
    description: r.description,
    cvss_vector: r.cvss_vector,
    attachments: r.attachments,
    submission: r.submission,
    decision: r.decision,
    payout: r.payout,
  };
}

export function rewardRange(p: ProgramRecord): ProgramSummary['reward_range'] {
  const values = Object.values(p.rewards).filter((v): v is number => typeof v === 'number');
  return {
    min: values.length ? Math.min(...values) : 0,
    max: values.length ? Math.max(...values) : 0,
    currency: 'USD',
  };
}

export function toProgramSummary(p: ProgramRecord): ProgramSummary {
  return {
    id: p.id,
    name: p.name,
    customer_name: p.customer_name,
    intake: p.intake,
    demo: p.demo,
    summary: p.summary,
    asset_types: p.asset_types,
    reward_range: rewardRange(p),
    rewards: p.rewards,
    policy_version: p.policy_version,
    updated_at: isoOf(p.updated_ms),
    private: p.private,
    pool_paused: p.pool_paused,
  };
}

export function toProgram(p: ProgramRecord): Program {
  return {
    ...toProgramSummary(p),
    description: p.description,
    scope: p.scope,
    exclusions: p.exclusions,
    rules: p.rules,
    eligibility: p.eligibility,
    disclosure: p.disclosure,
  };
}

const PAYMENTS_DETAIL: Record<PaymentsStatus['status'], string> = {
  unconfigured: 'No payout account is connected yet.',
  not_started: 'Payout onboarding has not been started.',
  needs_information: 'The payment provider needs more information.',
  pending: 'The payment provider is reviewing the account.',
  ready: 'Payouts are enabled (test mode).',
  unavailable: 'The payment provider could not be reached.',
};

export function toPaymentsStatus(a: AccountRecord): PaymentsStatus {
  return {
    configured: a.payments_status !== 'unconfigured',
    status: a.payments_status,
    ready: a.payments_status === 'ready',
    checked_at: a.payments_checked_at,
    detail: PAYMENTS_DETAIL[a.payments_status],
  };
}

export function toApiKey(k: KeyRecord): ApiKey {
  return {
    id: k.id,
    name: k.name,
    scope: k.scope,
    hint: k.hint,
    created_at: isoOf(k.created_ms),
    last_used_at: k.last_used_ms === null ? null : isoOf(k.last_used_ms),
    expires_at: k.expires_ms === null ? null : isoOf(k.expires_ms),
  };
}
