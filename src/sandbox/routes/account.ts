/** Account routes: Me, payments status and onboarding, verification e-mail, password reset. */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { MINUTE } from '../clock';
import { ApiError } from '../errors';
import { tokenHash } from '../ids';
import type { Route } from '../router';
import { requireVerified } from '../state/reports';
import { toPaymentsStatus } from '../state/serialize';
import { LIMITS } from '@shared/api';
import { check, describeError } from '../validation';
import { accountOf, jsonBody } from './reports';

export const accountRoutes: Route[] = [
  {
    method: 'GET',
    template: '/api/me',
    auth: 'user',
    handle(ctx) {
      const a = accountOf(ctx);
      return {
        status: 200,
        body: {
          uid: a.uid,
          email: a.email,
          email_verified: a.email_verified,
          active_reports: ctx.env.world.activeReports(a.uid),
          active_limit: LIMITS.activeReports,
          payments: toPaymentsStatus(a),
        },
      };
    },
  },
  {
    method: 'GET',
    template: '/api/payments/status',
    auth: 'user',
    handle(ctx) {
      const a = accountOf(ctx);
      requireVerified(a);
      // "Fresh from the provider": the sandbox is the provider, so this is a new check now.
      a.payments_checked_at = ctx.env.clock.iso();
      return { status: 200, body: toPaymentsStatus(a) };
    },
  },
  {
    method: 'POST',
    template: '/api/payments/onboarding',
    auth: 'session',
    handle(ctx) {
      const a = accountOf(ctx);
      const now = ctx.env.clock.now();
      ctx.env.limiter.hit('onboarding', a.uid);
      if (a.onboarding_started_ms !== null && now - a.onboarding_started_ms < MINUTE) {
        const retryAfter = Math.max(1, Math.ceil((a.onboarding_started_ms + MINUTE - now) / 1000));
        throw new ApiError(
          409,
          'onboarding_in_progress',
          'Onboarding started less than a minute ago.',
          {
            retryAfter,
          },
        );
      }
      if (a.payments_status === 'unavailable') {
        throw new ApiError(503, 'payments_unavailable', 'The payment provider did not answer.', {
          retryAfter: 60,
        });
      }
      const token = randomBytes(24).toString('base64url');
      a.onboarding_started_ms = now;
      a.onboarding_token_hash = tokenHash(token);
      if (a.payments_status === 'unconfigured') a.payments_status = 'not_started';
      return { status: 200, body: { url: `${ctx.baseUrl}/__sandbox/onboarding/${token}` } };
    },
  },
  {
    method: 'POST',
    template: '/api/auth/verification-email',
    auth: 'user',
    handle(ctx) {
      const a = accountOf(ctx);
      if (a.email_verified) return { status: 200, body: { already_verified: true, sent: false } };
      ctx.env.limiter.hit('verificationEmail', a.uid);
      return { status: 200, body: { already_verified: false, sent: true } };
    },
  },
  {
    method: 'POST',
    template: '/api/auth/password-reset',
    auth: 'public',
    async handle(ctx) {
      const started = Date.now();
      const input = await jsonBody(ctx);
      const result = check<{ email: string }>('ResetInput', input ?? {});
      if (!result.ok) {
        const issues = result.errors.map((e) => {
          const { field, message } = describeError(e);
          return {
            loc: ['body', ...field.split('.').filter(Boolean)],
            msg: message,
            type: e.keyword,
          };
        });
        throw new ApiError(422, 'validation_error', 'Invalid body.', {
          body: { detail: issues, code: 'validation_error' },
        });
      }
      ctx.env.limiter.hit('resetPerIp', ctx.ip);
      ctx.env.limiter.hit('resetPerAddress', result.value.email.toLowerCase());
      // The sandbox sends no e-mail; the answer is the same with or without an account, and
      // always takes the same (configurable) time.
      const wait = ctx.env.options.passwordResetPadMs - (Date.now() - started);
      if (wait > 0) await sleep(wait);
      return { status: 200, body: { accepted: true } };
    },
  },
];
