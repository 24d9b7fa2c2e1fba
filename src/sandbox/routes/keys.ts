/** API keys (website sign-in only): list newest first, create (secret shown once), delete. */
import { ApiError, notFound } from '../errors';
import type { RequestContext, Route } from '../router';
import { addKey } from '../state/accounts';
import { requireVerified } from '../state/reports';
import { toApiKey } from '../state/serialize';
import { accountOf, withBody } from './reports';

export const KEY_LIMIT = 100;

function keyList(ctx: RequestContext) {
  const keys = ctx.env.world
    .keysOf(accountOf(ctx).uid)
    .sort((a, b) => b.created_ms - a.created_ms || b.seq - a.seq)
    .map(toApiKey);
  return { keys };
}

export const keyRoutes: Route[] = [
  {
    method: 'GET',
    template: '/api/keys',
    auth: 'session',
    handle: (ctx) => ({ status: 200, body: keyList(ctx) }),
  },
  {
    method: 'POST',
    template: '/api/keys',
    auth: 'session',
    handle: withBody('KeyInput', (ctx, input) => {
      const account = accountOf(ctx);
      requireVerified(account);
      if (ctx.env.world.keysOf(account.uid).length >= KEY_LIMIT) {
        throw new ApiError(409, 'key_limit', `An account holds at most ${KEY_LIMIT} keys.`);
      }
      const { record, key } = addKey(ctx.env.world, account.uid, {
        name: input.name,
        scope: input.scope ?? 'write',
        expiresInDays: input.expires_in_days === undefined ? 90 : input.expires_in_days,
        fixture: false,
      });
      return { status: 201, body: { ...toApiKey(record), key } };
    }),
  },
  {
    method: 'DELETE',
    template: '/api/keys/{key_id}',
    auth: 'session',
    handle(ctx) {
      const key = ctx.env.world.keys.get(ctx.params.key_id ?? '');
      if (!key || key.uid !== accountOf(ctx).uid) throw notFound('Key not found.');
      ctx.env.world.deleteKey(key);
      return { status: 200, body: keyList(ctx) };
    },
  },
];
