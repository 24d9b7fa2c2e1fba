/**
 * Control routes `/__sandbox/...` (sandbox only, never part of the researcher API): the world,
 * reset, accounts and keys, programs, moves of the agent and the owner team, payouts, faults, the
 * clock, plus the extensions bulk-reports, stats and the onboarding page.
 */
import { ApiError, notFound } from '../errors';
import { readJson } from '../http-io';
import { tokenHash } from '../ids';
import type { RequestContext, Route } from '../router';
import { addAccount, addKey, endKeysBeforeNow, worldAccountView } from '../state/accounts';
import { act, setPayout } from '../state/reports';
import { toReport } from '../state/serialize';
import type { ProgramRecord } from '../state/types';
import { bulkReports } from '../world/bulk';
import {
  accountPatchBody,
  actBody,
  bulkReportsBody,
  clockBody,
  faultsBody,
  newAccountBody,
  newKeyBody,
  payoutBody,
  programPatchBody,
} from './control-bodies';

const bad = (detail: string): ApiError => new ApiError(422, 'validation_error', detail);

/** The JSON body (none is `{}`), checked by the route's schema in `control-bodies.ts`. */
async function body<T>(ctx: RequestContext, check: (data: unknown) => T): Promise<T> {
  return check((await readJson(ctx.req, ctx.env.options.jsonBodyTimeoutMs)) ?? {});
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
      const b = await body(ctx, newAccountBody);
      const world = ctx.env.world;
      const n = world.nextSeq();
      const uid = `user-${n}`;
      const account = addAccount(world, {
        uid,
        email: `${uid}@sandbox.test`,
        email_verified: b.email_verified,
        payments_status: b.payments_status,
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
      const b = await body(ctx, accountPatchBody);
      if (b.email_verified !== undefined) account.email_verified = b.email_verified;
      if (b.payments_status !== undefined) {
        account.payments_status = b.payments_status;
        account.payments_checked_at = ctx.env.clock.iso();
      }
      if (b.password_changed) endKeysBeforeNow(ctx.env.world, account);
      if (b.disabled !== undefined) account.disabled = b.disabled;
      return ok(worldAccountView(ctx.env.world, account));
    },
  },
  {
    method: 'POST',
    template: '/__sandbox/accounts/{uid}/keys',
    auth: 'public',
    async handle(ctx) {
      const account = accountOr404(ctx);
      const { scope, expires_in_days: days } = await body(ctx, newKeyBody);
      const { record, key } = addKey(ctx.env.world, account.uid, {
        scope,
        name: `Sandbox ${scope} key`,
        expiresInDays: days ?? null,
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
      const b = await body(ctx, programPatchBody);
      const { invite, policy } = b;
      if (invite !== undefined && !ctx.env.world.accounts.has(invite)) {
        throw bad('invite: must be the uid of an account');
      }
      if (b.intake !== undefined) program.intake = b.intake;
      if (b.pool_paused !== undefined) program.pool_paused = b.pool_paused;
      if (b.published !== undefined) program.published = b.published;
      if (b.private !== undefined) program.private = b.private;
      if (invite !== undefined && !program.invited.includes(invite)) program.invited.push(invite);
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
      const { actor, status, message } = await body(ctx, actBody);
      if (!r.submission || r.status === 'withdrawn' || r.decision) {
        throw bad('report: only a submitted report before a final decision can be moved');
      }
      act(ctx.env.world, r, actor, status, message ?? null);
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
      const { status, amount_cents: amount } = await body(ctx, payoutBody);
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
      const b = await body(ctx, faultsBody);
      const config = {
        rate: b.rate,
        statuses: b.statuses,
        reset_connection: b.reset_connection,
        latency_ms: b.latency_ms,
        seed: b.seed,
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
      const { advance_seconds: seconds } = await body(ctx, clockBody);
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
      const b = await body(ctx, bulkReportsBody);
      const account = ctx.env.world.accounts.get(b.uid);
      if (!account) throw bad('uid: must be the uid of an account');
      const { count, submitted_share: share, needs_info: needsInfo, triaging } = b;
      if ((needsInfo ?? 0) + (triaging ?? 0) > Math.floor(count * share))
        throw bad('needs_info, triaging: more than the submitted reports');
      return ok({
        created: bulkReports(ctx.env.world, account, count, share, {
          ...(needsInfo !== undefined ? { needsInfo } : {}),
          ...(triaging !== undefined ? { triaging } : {}),
          ...(b.ends_at !== undefined ? { endsAt: Date.parse(b.ends_at) } : {}),
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
