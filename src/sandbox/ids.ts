/**
 * Identifiers, secrets and hashes. Seeded things get stable values (derived from a name), so a
 * fresh sandbox is always the same world; things made through the researcher API are random.
 */
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { SANDBOX_KEY_PREFIX } from '@shared/api/api-key';

/** Fixed: fixture secrets must be the same in every run. Not a secret of any real system. */
const FIXTURE_SECRET = 'bounty-desk-sandbox-fixtures-v1';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export const isUuidV4 = (value: string): boolean => UUID_V4.test(value);

export const sha256Hex = (data: string | Buffer): string =>
  createHash('sha256').update(data).digest('hex');

/** A UUIDv4-shaped id derived from a name (stable across runs). */
export function stableUuid(name: string): string {
  const h = sha256Hex(name);
  const variant = ((parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export const newUuid = (): string => randomUUID();

/** `sbx_` + 43 characters, as the API document describes keys. */
export const randomApiKey = (): string =>
  `${SANDBOX_KEY_PREFIX}_${randomBytes(32).toString('base64url')}`;

/** The secret of a key made by the seed or a control route, recomputable from its id. */
export const fixtureApiKey = (keyId: string): string =>
  `${SANDBOX_KEY_PREFIX}_${createHmac('sha256', FIXTURE_SECRET).update(keyId).digest('base64url')}`;

/** A website-session token: a different shape from keys (dotted, like an ID token). */
export const fixtureSessionToken = (uid: string): string =>
  `sbxsession.${Buffer.from(uid).toString('base64url')}.${createHmac('sha256', FIXTURE_SECRET)
    .update(`session:${uid}`)
    .digest('base64url')}`;

/** Only this is stored for a key or a session token. */
export const tokenHash = (token: string): string => sha256Hex(token);
