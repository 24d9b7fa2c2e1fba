/**
 * Control routes `/__sandbox/...` (sandbox only, never part of the researcher API): the world,
 * reset, accounts and keys, programs, moves of the agent and the owner team, payouts, faults, the
 * clock, plus the extensions bulk-reports, stats and the onboarding page.
 */
import type { KeyScope, PaymentsAccountStatus, PayoutStatus, ReportStatus } from '../api-types';
import { ApiError, notFound } from '../errors';
import { readJson } from '../http-io';
import { tokenHash } from '../ids';
import type { RequestContext, Route } from '../router';
import { addAccount, addKey, endKeysBeforeNow, worldAccountView } from '../state/accounts';
import { ACT_STATUSES, act, setPayout } from '../state/reports';
import { toReport } from '../state/serialize';
import type { PolicyFields, ProgramRecord } from '../state/types';
import { bulkReports } from '../world/bulk';

const PAYMENTS: PaymentsAccountStatus[] = [
  'unconfigured',
  'not_started',
  'needs_information',
  'pending',
  'ready',
  'unavailable',
];
const PAYOUTS: PayoutStatus[] = ['approving', 'transferred', 'received', 'payout_failed'];
const POLICY_TEXT = ['scope', 'exclusions', 'rules', 'eligibility', 'disclosure'] as const;

const bad = (detail: string): ApiError => new ApiError(422, 'validation_error', detail);

type Body = Record<string, unknown>;

async function body(ctx: RequestContext): Promise<Body> {
  const value = await readJson(ctx.req, ctx.env.options.jsonBodyTimeoutMs);
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw bad('body: must be a JSON object');
  }
  return value as Body;
}

function optBool(b: Body, name: string): boolean | undefined {
  const v = b[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') throw bad(`${name}: must be a boolean`);
  return v;
}

function optOneOf<T extends string>(b: Body, name: string, allowed: readonly T[]): T | undefined {
  const v = b[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
    throw bad(`${name}: must be one of ${allowed.join(', ')}`);
  }
  return v as T;
}

function optNumber(
  b: Body,
  name: string,
  min: number,
  max: number,
  integer = true,
): number | undefined {
  const v = b[name];
  if (v === undefined) return undefined;
  if (
    typeof v !== 'number' ||
    !Number.isFinite(v) ||
    v < min ||
    v > max ||
    (integer && !Number.isInteger(v))
  ) {
    throw bad(`${name}: must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`);
  }
  return v;
}

const ok = (b: unknown = {}) => ({ status: 200, body: b });

function programView(p: ProgramRecord) {
  return {
    id: p.id,
    intake: p.intake,
    pool_paused: p.pool_paused,
    private: p.private,
    published: p.published,
    invited: [...p.invited],
    policy_version: p.policy_version,
  };
}

function accountOr404(ctx: RequestContext) {
  const account = ctx.env.world.accounts.get(ctx.params.uid ?? '');
  if (!account) throw notFound('Account not found.');
  return account;
}

function reportOr404(ctx: RequestContext) {
  const report = ctx.env.world.reports.get(ctx.params.id ?? '');
  if (!report) throw notFound('Report not found.');
  return report;
}

function worldView(ctx: RequestContext) {
  const world = ctx.env.world;
  return {
    accounts: [...world.accounts.values()].map((a) => worldAccountView(world, a)),
    programs: [...world.programs.values()].map(programView),
  };
}

export const controlRoutes: Route[] = [
  {
    method: 'GET',
    template: '/__sandbox/world',
    auth: 'public',
    handle: (ctx) => ok(worldView(ctx)),
  },
  {
    method: 'POST',
    template: '/__sandbox/reset',
    auth: 'public',
    async handle(ctx) {
      await ctx.env.reset();
      return ok();
    },
  },
  {
    method: 'POST',
    template: '/__sandbox/accounts',
    auth: 'public',
    async handle(ctx) {
      const b = await body(ctx);
      const world = ctx.env.world;
      const n = world.nextSeq();
      const uid = `user-${n}`;
      const account = addAccount(world, {
        uid,
        email: `${uid}@sandbox.test`,
        email_verified: optBool(b, 'email_verified') ?? true,
        payments_status: optOneOf(b, 'payments_status', PAYMENTS) ?? 'ready',
      });
      addKey(world, uid, {
        scope: 'write',
        name: 'Sandbox write key',
        expiresInDays: null,
        fixture: true,
      });
      addKey(world, uid, {
        scope: 'read',
        name: 'Sandbox read key',
        expiresInDays: null,
        fixture: true,
      });
      return ok(worldAccountView(world, account));
    },
  },
  {
    method: 'PATCH',
    template: '/__sandbox/accounts/{uid}',
    auth: 'public',
    async handle(ctx) {
      const account = accountOr404(ctx);
      const b = await body(ctx);
      const verified = optBool(b, 'email_verified');
      const payments = optOneOf(b, 'payments_status', PAYMENTS);
      const passwordChanged = optBool(b, 'password_changed');
      const disabled = optBool(b, 'disabled');
      if (verified !== undefined) account.email_verified = verified;
      if (payments !== undefined) {
        account.payments_status = payments;
        account.payments_checked_at = ctx.env.clock.iso();
      }
      if (passwordChanged) endKeysBeforeNow(ctx.env.world, account);
      if (disabled !== undefined) account.disabled = disabled;
      return ok(worldAccountView(ctx.env.world, account));
    },
  },
  {
    method: 'POST',
    template: '/__sandbox/accounts/{uid}/keys',
    auth: 'public',
    async handle(ctx) {
      const account = accountOr404(ctx);
      const b = await body(ctx);
      const scope = optOneOf<KeyScope>(b, 'scope', ['read', 'write']);
      if (!scope) throw bad('scope: is required');
      const days =
        b.expires_in_days === null ? null : (optNumber(b, 'expires_in_days', 1, 365) ?? null);
      const { record, key } = addKey(ctx.env.world, account.uid, {
        scope,
        name: `Sandbox ${scope} key`,
        expiresInDays: days,
        fixture: true,
      });
      return ok({ id: record.id, scope, key });
    },
  },
  {
    method: 'PATCH',
    template: '/__sandbox/programs/{id}',
    auth: 'public',
    async handle(ctx) {
      const program = ctx.env.world.programs.get(ctx.params.id ?? '');
      if (!program) throw notFound('Program not found.');
      const b = await body(ctx);
      const intake = optOneOf(b, 'intake', ['open', 'paused', 'closed'] as const);
      const poolPaused = optBool(b, 'pool_paused');
      const published = optBool(b, 'published');
      const isPrivate = optBool(b, 'private');
      const invite = b.invite;
      if (
        invite !== undefined &&
        (typeof invite !== 'string' || !ctx.env.world.accounts.has(invite))
      ) {
        throw bad('invite: must be the uid of an account');
      }
      const policy = parsePolicy(b.policy);
      if (intake !== undefined) program.intake = intake;
      if (poolPaused !== undefined) program.pool_paused = poolPaused;
      if (published !== undefined) program.published = published;
      if (isPrivate !== undefined) program.private = isPrivate;
      if (typeof invite === 'string' && !program.invited.includes(invite))
        program.invited.push(invite);
      if (policy) {
        Object.assign(program, policy);
        program.policy_version += 1;
      }
      program.updated_ms = ctx.env.clock.now();
      return ok(programView(program));
    },
  },
  {
    method: 'POST',
    template: '/__sandbox/reports/{id}/act',
    auth: 'public',
    async handle(ctx) {
      const r = reportOr404(ctx);
      const b = await body(ctx);
      const actor = optOneOf(b, 'actor', ['agent', 'founder'] as const);
      const status = optOneOf<ReportStatus>(b, 'status', ACT_STATUSES);
      if (!actor) throw bad('actor: is required');
      if (!status) throw bad('status: is required');
      if (b.message !== undefined && typeof b.message !== 'string')
        throw bad('message: must be a string');
      if (!r.submission || r.status === 'withdrawn' || r.decision) {
        throw bad('report: only a submitted report before a final decision can be moved');
      }
      act(ctx.env.world, r, actor, status, (b.message as string | undefined) ?? null);
      ctx.env.agent.cancel(r.id);
      if (ctx.env.agent.mode === 'auto') ctx.env.agent.queueFor(r);
      return ok(toReport(r));
    },
  },
  {
    method: 'POST',
    template: '/__sandbox/reports/{id}/payout',
    auth: 'public',
    async handle(ctx) {
      const r = reportOr404(ctx);
      const b = await body(ctx);
      const status = optOneOf(b, 'status', PAYOUTS);
      if (!status) throw bad('status: is required');
      const amount = optNumber(b, 'amount_cents', 0, Number.MAX_SAFE_INTEGER);
      if (r.status !== 'accepted') throw bad('report: only an accepted report has a payout');
      setPayout(ctx.env.world, r, status, amount);
      return ok(toReport(r));
    },
  },
  {
    method: 'POST',
    template: '/__sandbox/faults',
    auth: 'public',
    async handle(ctx) {
      const b = await body(ctx);
      const rate = optNumber(b, 'rate', 0, 1, false);
      if (rate === undefined) throw bad('rate: is required');
      const statuses = b.statuses ?? [];
      if (
        !Array.isArray(statuses) ||
        !statuses.every((s) => Number.isInteger(s) && (s as number) >= 400 && (s as number) <= 599)
      ) {
        throw bad('statuses: must be a list of HTTP error statuses (400 to 599)');
      }
      const config = {
        rate,
        statuses: statuses as number[],
        reset_connection: optBool(b, 'reset_connection') ?? false,
        latency_ms: optNumber(b, 'latency_ms', 0, 60_000) ?? 0,
        seed: optNumber(b, 'seed', 0, 2 ** 32 - 1) ?? 1,
      };
      ctx.env.faults.configure(config);
      return ok(config);
    },
  },
  {
    method: 'DELETE',
    template: '/__sandbox/faults',
    auth: 'public',
    handle(ctx) {
      ctx.env.faults.clear();
      return ok();
    },
  },
  {
    method: 'POST',
    template: '/__sandbox/clock',
    auth: 'public',
    async handle(ctx) {
      const b = await body(ctx);
      const seconds = optNumber(b, 'advance_seconds', 0, 10 * 365 * 24 * 3600, false);
      if (seconds === undefined) throw bad('advance_seconds: is required');
      ctx.env.clock.advance(seconds);
      ctx.env.agent.runDue();
      return ok(clockView(ctx));
    },
  },
  {
    method: 'GET',
    template: '/__sandbox/clock',
    auth: 'public',
    handle: (ctx) => ok(clockView(ctx)),
  },
  {
    method: 'POST',
    template: '/__sandbox/bulk-reports',
    auth: 'public',
    async handle(ctx) {
      const b = await body(ctx);
      const account = ctx.env.world.accounts.get(typeof b.uid === 'string' ? b.uid : '');
      if (!account) throw bad('uid: must be the uid of an account');
      const count = optNumber(b, 'count', 1, 1_000_000);
      if (count === undefined) throw bad('count: is required');
      const share = optNumber(b, 'submitted_share', 0, 1, false) ?? 0.5;
      const needsInfo = optNumber(b, 'needs_info', 0, count);
      const triaging = optNumber(b, 'triaging', 0, count);
      if ((needsInfo ?? 0) + (triaging ?? 0) > Math.floor(count * share))
        throw bad('needs_info, triaging: more than the submitted reports');
      let endsAt: number | undefined;
      if (b.ends_at !== undefined) {
        endsAt = typeof b.ends_at === 'string' ? Date.parse(b.ends_at) : NaN;
        if (!Number.isFinite(endsAt)) throw bad('ends_at: must be a date-time');
      }
      return ok({
        created: bulkReports(ctx.env.world, account, count, share, {
          ...(needsInfo !== undefined ? { needsInfo } : {}),
          ...(triaging !== undefined ? { triaging } : {}),
          ...(endsAt !== undefined ? { endsAt } : {}),
        }),
      });
    },
  },
  {
    method: 'GET',
    template: '/__sandbox/stats',
    auth: 'public',
    handle: (ctx) => ok(ctx.env.stats.view()),
  },
  {
    method: 'DELETE',
    template: '/__sandbox/stats',
    auth: 'public',
    handle(ctx) {
      ctx.env.stats.reset();
      return ok();
    },
  },
  {
    // The single-use link `POST /api/payments/onboarding` hands out: opening it in a browser
    // finishes onboarding (payments become `ready`).
    method: 'GET',
    template: '/__sandbox/onboarding/{token}',
    auth: 'public',
    handle(ctx) {
      const hash = tokenHash(ctx.params.token ?? '');
      const account = [...ctx.env.world.accounts.values()].find(
        (a) => a.onboarding_token_hash === hash,
      );
      if (!account) throw notFound('This onboarding link is unknown or was already used.');
      account.onboarding_token_hash = null;
      account.payments_status = 'ready';
      account.payments_checked_at = ctx.env.clock.iso();
      const html =
        '<!doctype html><meta charset="utf-8"><title>Payouts connected</title>' +
        '<h1>Payouts connected</h1><p>The sandbox payout account is ready (test mode). You can close this tab.</p>';
      return {
        status: 200,
        bytes: Buffer.from(html),
        headers: { 'Content-Type': 'text/html; charset=utf-8' },
      };
    },
  },
];

function clockView(ctx: RequestContext) {
  return { now: ctx.env.clock.iso(), offset_seconds: ctx.env.clock.offset / 1000 };
}

function parsePolicy(value: unknown): Partial<PolicyFields> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw bad('policy: must be an object');
  }
  const v = value as Record<string, unknown>;
  const out: Partial<PolicyFields> = {};
  for (const field of [...POLICY_TEXT, 'description'] as const) {
    if (v[field] === undefined) continue;
    if (typeof v[field] !== 'string') throw bad(`policy.${field}: must be a string`);
    out[field] = v[field] as string;
  }
  if (v.rewards !== undefined) {
    const rewards = v.rewards as Record<string, unknown>;
    const ok =
      typeof rewards === 'object' &&
      rewards !== null &&
      Object.entries(rewards).every(
        ([k, n]) =>
          ['low', 'medium', 'high', 'critical'].includes(k) &&
          Number.isInteger(n) &&
          (n as number) >= 0,
      );
    if (!ok) throw bad('policy.rewards: must map low, medium, high, critical to whole dollars');
    out.rewards = rewards as PolicyFields['rewards'];
  }
  return out;
}
