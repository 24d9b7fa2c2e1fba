/**
 * What each control route (`/__sandbox/...`) accepts, as JSON Schemas checked by the sandbox's
 * Ajv (`validation.ts`): a bad field gets `422 validation_error` naming it, in the words of the
 * researcher routes, and the documented defaults are filled in. The enums are the contract's own.
 * Fields not listed are ignored.
 */
import type { KeyScope, PaymentsAccountStatus, PayoutStatus, ReportStatus } from '../api-types';
import { schemaRef } from '@shared/api/validate';
import { ACT_STATUSES } from '../state/reports';
import type { PolicyFields } from '../state/types';
import { bodyChecker } from '../validation';

const bool = { type: 'boolean' };
const text = { type: 'string' };
const integer = (minimum: number, maximum = Number.MAX_SAFE_INTEGER) => ({
  type: 'integer',
  minimum,
  maximum,
});
const number = (minimum: number, maximum: number) => ({ type: 'number', minimum, maximum });
const object = (properties: Record<string, object>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
});
const payments = { $ref: schemaRef('PaymentsAccountStatus') };
const dollars = integer(0);

export const newAccountBody = bodyChecker<{
  email_verified: boolean;
  payments_status: PaymentsAccountStatus;
}>(
  object({
    email_verified: { ...bool, default: true },
    payments_status: { ...payments, default: 'ready' },
  }),
);

export const accountPatchBody = bodyChecker<{
  email_verified?: boolean;
  payments_status?: PaymentsAccountStatus;
  password_changed?: boolean;
  disabled?: boolean;
}>(
  object({
    email_verified: bool,
    payments_status: payments,
    password_changed: bool,
    disabled: bool,
  }),
);

/** A key without `expires_in_days` (or with null) never expires. */
export const newKeyBody = bodyChecker<{ scope: KeyScope; expires_in_days?: number | null }>(
  object(
    {
      scope: { $ref: schemaRef('KeyScope') },
      expires_in_days: { type: ['integer', 'null'], minimum: 1, maximum: 365 },
    },
    ['scope'],
  ),
);

export const programPatchBody = bodyChecker<{
  intake?: 'open' | 'paused' | 'closed';
  pool_paused?: boolean;
  published?: boolean;
  private?: boolean;
  /** The uid of an account to invite (checked by the route). */
  invite?: string;
  policy?: Partial<PolicyFields>;
}>(
  object({
    intake: { type: 'string', enum: ['open', 'paused', 'closed'] },
    pool_paused: bool,
    published: bool,
    private: bool,
    invite: text,
    // Copied onto the program as it is: no other field may come in.
    policy: {
      ...object({
        description: text,
        scope: text,
        exclusions: text,
        rules: text,
        eligibility: text,
        disclosure: text,
        rewards: {
          ...object({ low: dollars, medium: dollars, high: dollars, critical: dollars }),
          additionalProperties: false,
        },
      }),
      additionalProperties: false,
    },
  }),
);

export const actBody = bodyChecker<{
  actor: 'agent' | 'founder';
  status: ReportStatus;
  message?: string;
}>(
  object(
    {
      actor: { type: 'string', enum: ['agent', 'founder'] },
      status: { type: 'string', enum: ACT_STATUSES },
      message: text,
    },
    ['actor', 'status'],
  ),
);

export const payoutBody = bodyChecker<{ status: PayoutStatus; amount_cents?: number }>(
  object({ status: { $ref: schemaRef('PayoutStatus') }, amount_cents: integer(0) }, ['status']),
);

export const faultsBody = bodyChecker<{
  rate: number;
  statuses: number[];
  reset_connection: boolean;
  latency_ms: number;
  seed: number;
}>(
  object(
    {
      rate: number(0, 1),
      statuses: { type: 'array', items: integer(400, 599), default: [] },
      reset_connection: { ...bool, default: false },
      latency_ms: { ...integer(0, 60_000), default: 0 },
      seed: { ...integer(0, 2 ** 32 - 1), default: 1 },
    },
    ['rate'],
  ),
);

export const clockBody = bodyChecker<{ advance_seconds: number }>(
  object({ advance_seconds: number(0, 10 * 365 * 24 * 3600) }, ['advance_seconds']),
);

export const bulkReportsBody = bodyChecker<{
  uid: string;
  count: number;
  submitted_share: number;
  needs_info?: number;
  triaging?: number;
  ends_at?: string;
}>(
  object(
    {
      uid: text,
      count: integer(1, 1_000_000),
      submitted_share: { ...number(0, 1), default: 0.5 },
      needs_info: integer(0),
      triaging: integer(0),
      ends_at: { type: 'string', format: 'date-time' },
    },
    ['uid', 'count'],
  ),
);
