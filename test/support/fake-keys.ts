/**
 * Throwaway private keys made from the run's seed (test/support/random.ts), not from the OS's
 * random source as `generateKeyPairSync` would: a replayed run sees the same keys. Each is a real
 * key OpenSSL accepts (built from its numbers as a JWK), never a committed one.
 */
import {
  createCipheriv,
  createECDH,
  createPrivateKey,
  createPublicKey,
  pbkdf2Sync,
  type KeyObject,
} from 'node:crypto';
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

/**
 * `key` as an encrypted PKCS#8 PEM (PBES2: PBKDF2-HMAC-SHA256, AES-256-CBC), as OpenSSL writes it
 * but with a seeded salt and IV: `key.export({ cipher, passphrase })` would draw them at random.
 */
export function encryptedPkcs8(key: KeyObject, passphrase: string): string {
  const salt = randomBytes(16);
  const iv = randomBytes(16);
  const iterations = 2048;
  const derived = pbkdf2Sync(passphrase, salt, iterations, 32, 'sha256');
  const plain = key.export({ type: 'pkcs8', format: 'der' });
  const cipher = createCipheriv('aes-256-cbc', derived, iv);
  const encrypted = Buffer.concat([cipher.update(plain), cipher.final()]);
  const der = seq(
    seq(
      oid('2a864886f70d01050d'), // PBES2
      seq(
        seq(
          oid('2a864886f70d01050c'), // PBKDF2
          seq(octets(salt), integer(iterations), seq(oid('2a864886f70d0209'), tlv(0x05))),
        ),
        seq(oid('60864801650304012a'), octets(iv)), // aes-256-cbc
      ),
    ),
    octets(encrypted),
  );
  const body = der.toString('base64').replace(/.{64}/g, '$&\n').trimEnd();
  return `-----BEGIN ENCRYPTED PRIVATE KEY-----\n${body}\n-----END ENCRYPTED PRIVATE KEY-----`;
}

function tlv(tag: number, content: Buffer = Buffer.alloc(0)): Buffer {
  const n = content.length;
  const length =
    n < 0x80
      ? Buffer.from([n])
      : n < 0x100
        ? Buffer.from([0x81, n])
        : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, content]);
}
const seq = (...parts: Buffer[]): Buffer => tlv(0x30, Buffer.concat(parts));
const octets = (bytes: Buffer): Buffer => tlv(0x04, bytes);
const oid = (hex: string): Buffer => tlv(0x06, Buffer.from(hex, 'hex'));
function integer(value: number): Buffer {
  let hex = value.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  if (parseInt(hex.slice(0, 2), 16) >= 0x80) hex = `00${hex}`;
  return tlv(0x02, Buffer.from(hex, 'hex'));
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
