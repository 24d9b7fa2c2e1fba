/**
 * Bearer tokens (part 5): API keys (`sbx_` + 43 characters, looked up by hash) and website-session
 * tokens. Account state is read on every request, so a change applies to existing keys at once.
 */
import { isSandboxKeyShape } from '@shared/api/api-key';
import { tokenHash } from './ids';
import type { AccountRecord, KeyRecord } from './state/types';
import type { World } from './state/world';

export interface Principal {
  account: AccountRecord;
  via: 'key' | 'session';
  key?: KeyRecord;
}

const BEARER = /^Bearer +(\S+) *$/i;

/** The principal of a valid token, or null (missing, malformed, unknown, expired, ended). */
export function authenticate(world: World, header: string): Principal | null {
  const token = BEARER.exec(header)?.[1];
  if (!token) return null;
  const now = world.clock.now();
  if (isSandboxKeyShape(token)) {
    const key = world.keysByHash.get(tokenHash(token));
    if (!key) return null;
    if (key.expires_ms !== null && now >= key.expires_ms) return null;
    const account = world.accounts.get(key.uid);
    if (!account || account.disabled || key.created_ms < account.password_changed_ms) return null;
    key.last_used_ms = now;
    return { account, via: 'key', key };
  }
  const uid = world.sessions.get(tokenHash(token));
  const account = uid === undefined ? undefined : world.accounts.get(uid);
  if (!account || account.disabled) return null;
  return { account, via: 'session' };
}
