/**
 * Throwaway private keys made from the run's seed (test/support/random.ts), not from the OS's
 * random source as `generateKeyPairSync` would: a replayed run sees the same keys. Each is a real
 * key OpenSSL accepts (built from its numbers as a JWK), never a committed one.
 */
import { createECDH, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { randomBytes } from './random';

const b64u = (bytes: Buffer): string => bytes.toString('base64url');

export function fakeEcKey(): KeyObject {
  const ecdh = createECDH('prime256v1');
  // Any 32 bytes below the curve's order (all but a 2^-32 share of them) are a private key.
  ecdh.setPrivateKey(randomBytes(32));
  const point = ecdh.getPublicKey(); // 0x04 || x || y
  return createPrivateKey({
    format: 'jwk',
    key: {
      kty: 'EC',
      crv: 'P-256',
      d: b64u(ecdh.getPrivateKey()),
      x: b64u(point.subarray(1, 33)),
      y: b64u(point.subarray(33, 65)),
    },
  });
}

export function fakeEd25519Key(): KeyObject {
  const d = randomBytes(32);
  // The public half follows from the seed: OpenSSL derives it from a raw PKCS#8 seed.
  const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), d]);
  const key = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' });
  createPublicKey(key); // checks the key is whole
  return key;
}

/** An RSA key of `bits` (1024 by default: a test key, made in about 100 ms) from seeded primes. */
export function fakeRsaKey(bits = 1024): KeyObject {
  const e = 65537n;
  for (;;) {
    const p = prime(bits / 2);
    const q = prime(bits / 2);
    if (p === q) continue;
    const phi = (p - 1n) * (q - 1n);
    if (gcd(e, phi) !== 1n) continue;
    const n = p * q;
    const d = modInverse(e, phi);
    const jwk = {
      kty: 'RSA',
      n: big(n),
      e: big(e),
      d: big(d),
      p: big(p),
      q: big(q),
      dp: big(d % (p - 1n)),
      dq: big(d % (q - 1n)),
      qi: big(modInverse(q, p)),
    };
    return createPrivateKey({ format: 'jwk', key: jwk });
  }
}

function big(value: bigint): string {
  let hex = value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  return b64u(Buffer.from(hex, 'hex'));
}

function fromBytes(bytes: Buffer): bigint {
  return BigInt(`0x${bytes.toString('hex')}`);
}

/** A probable prime of exactly `bits` bits (Miller–Rabin, 40 seeded rounds). */
function prime(bits: number): bigint {
  const top = 1n << BigInt(bits - 1);
  for (;;) {
    const candidate = (fromBytes(randomBytes(bits / 8)) | top | (top >> 1n) | 1n) % (top << 1n);
    if (SMALL_PRIMES.some((s) => candidate % s === 0n)) continue;
    if (millerRabin(candidate, 40)) return candidate;
  }
}

const SMALL_PRIMES = [3n, 5n, 7n, 11n, 13n, 17n, 19n, 23n, 29n, 31n, 37n, 41n, 43n, 47n];

function millerRabin(n: bigint, rounds: number): boolean {
  let d = n - 1n;
  let r = 0;
  while ((d & 1n) === 0n) {
    d >>= 1n;
    r++;
  }
  const bytes = Math.ceil(n.toString(16).length / 2);
  witness: for (let i = 0; i < rounds; i++) {
    const a = 2n + (fromBytes(randomBytes(bytes)) % (n - 3n));
    let x = modPow(a, d, n);
    if (x === 1n || x === n - 1n) continue;
    for (let j = 1; j < r; j++) {
      x = (x * x) % n;
      if (x === n - 1n) continue witness;
    }
    return false;
  }
  return true;
}

function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
    e >>= 1n;
  }
  return result;
}

function gcd(a: bigint, b: bigint): bigint {
  return b === 0n ? a : gcd(b, a % b);
}

function modInverse(a: bigint, m: bigint): bigint {
  let [oldR, r] = [a % m, m];
  let [oldS, s] = [1n, 0n];
  while (r !== 0n) {
    const quotient = oldR / r;
    [oldR, r] = [r, oldR - quotient * r];
    [oldS, s] = [s, oldS - quotient * s];
  }
  return ((oldS % m) + m) % m;
}
