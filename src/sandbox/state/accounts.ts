/** Accounts and their keys: creation, and the view the `/__sandbox/world` route shows. */
import type { KeyScope, PaymentsAccountStatus } from '../api-types';
import { DAY } from '../clock';
import {
  fixtureApiKey,
  fixtureSessionToken,
  newUuid,
  randomApiKey,
  stableUuid,
  tokenHash,
} from '../ids';
import type { WorldAccount } from '@shared/api/sandbox-world';
import type { World } from './world';
import type { AccountRecord, KeyRecord } from './types';
import { keyHint } from '@shared/api/api-key';

export interface AccountSeed {
  uid: string;
  email: string | null;
  email_verified: boolean;
  payments_status: PaymentsAccountStatus;
}

export function addAccount(world: World, seed: AccountSeed): AccountRecord {
  const account: AccountRecord = {
    ...seed,
    payments_checked_at: seed.payments_status === 'unconfigured' ? null : world.clock.iso(),
    password_changed_ms: 0,
    disabled: false,
    session_hash: tokenHash(fixtureSessionToken(seed.uid)),
    onboarding_started_ms: null,
    onboarding_token_hash: null,
  };
  world.addAccount(account);
  return account;
}

export interface NewKey {
  record: KeyRecord;
  key: string;
}

/**
 * A key. Fixture keys (seed and control routes) get a secret recomputable from their id, so the
 * world route can show it; keys made through `POST /api/keys` get a random secret that is shown once.
 */
export function addKey(
  world: World,
  uid: string,
  options: { scope: KeyScope; name: string; expiresInDays: number | null; fixture: boolean },
): NewKey {
  const seq = world.nextSeq();
  const id = options.fixture ? stableUuid(`key:${uid}:${seq}`) : newUuid();
  const key = options.fixture ? fixtureApiKey(id) : randomApiKey();
  const now = world.clock.now();
  const record: KeyRecord = {
    id,
    uid,
    name: options.name,
    scope: options.scope,
    hash: tokenHash(key),
    hint: keyHint(key),
    created_ms: now,
    last_used_ms: null,
    expires_ms: options.expiresInDays === null ? null : now + options.expiresInDays * DAY,
    fixture: options.fixture,
    seq,
  };
  world.addKey(record);
  return { record, key };
}

/** Password change: every key made before now stops working and leaves the list. */
export function endKeysBeforeNow(world: World, account: AccountRecord): void {
  const now = world.clock.now();
  account.password_changed_ms = now;
  for (const k of world.keysOf(account.uid)) if (k.created_ms <= now) world.deleteKey(k);
}

export function worldAccountView(world: World, account: AccountRecord): WorldAccount {
  return {
    uid: account.uid,
    email: account.email,
    email_verified: account.email_verified,
    payments_status: account.payments_status,
    session_token: fixtureSessionToken(account.uid),
    keys: world
      .keysOf(account.uid)
      .filter((k) => k.fixture)
      .sort((a, b) => a.seq - b.seq)
      .map((k) => ({ id: k.id, scope: k.scope, key: fixtureApiKey(k.id) })),
  };
}
