import { serialize, deserialize } from 'node:v8';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeFailure } from '../../src/cli/terminal';
import { EXIT } from '../../src/cli/exit-codes';
import { ApiError } from '../../src/engine/api/errors';
import {
  EngineInputError,
  NewerDataError,
  NotSignedInError,
  ReadOnlyError,
  SignInError,
} from '../../src/engine/commands/errors';
import { SecretsHeldError } from '../../src/engine/commands/secret-commands';
import { RemoteError, toBridgeError } from '../../src/engine/host/bridge-error';
import { DiskFullError } from '../../src/engine/store/storage-errors';
import { InvalidApiKeyError } from '../../src/engine/secrets/errors';
import { BridgeInputError } from '../../src/main/errors';
import { fieldErrorOf, thrownErrorView } from '../../src/renderer/src/lib/errors';
import { isBridgeError, type BridgeError } from '../../src/shared/errors/error-data';
import { fakeServiceKey } from '../support/fake-secrets';
import { testSeed } from '../support/random';

/** The two ways a BridgeError travels: IPC's structured clone, the engine socket's v8 frames. */
const crossings: [string, (e: BridgeError) => unknown][] = [
  ['structured clone (IPC)', (e) => structuredClone(e)],
  ['v8 frame (engine socket)', (e) => deserialize(serialize(e))],
  ['JSON (a log, a test wire)', (e) => JSON.parse(JSON.stringify(e))],
];

describe('the error codec: built once in the engine, read as data everywhere', () => {
  it('keeps the code and field of every engine input error across each crossing', () => {
    const cases: [Error, string, string | undefined][] = [
      [new EngineInputError('title', 'must be at most 180 characters'), 'invalid_input', 'title'],
      [
        new EngineInputError('cvss_vector', 'is not a CVSS 3.1 vector'),
        'invalid_input',
        'cvss_vector',
      ],
      [new SignInError('apiKey', 'The API key is not accepted.'), 'sign_in_failed', 'apiKey'],
      [new InvalidApiKeyError(12), 'sign_in_failed', 'apiKey'],
      [new NotSignedInError(), 'not_signed_in', undefined],
      [new ReadOnlyError(), 'read_only_key', undefined],
      [new NewerDataError(9, 8), 'newer_data', undefined],
      [new DiskFullError(), 'disk_full', undefined],
      [new SecretsHeldError('1 JWT in the description'), 'secrets_found', undefined],
      [new BridgeInputError('connect argument 1: is missing', 'apiKey'), 'bad_call', 'apiKey'],
    ];
    for (const [error, code, field] of cases) {
      const built = toBridgeError(error);
      expect(built, error.name).toMatchObject({ name: error.name, code });
      expect(built.field, error.name).toBe(field);
      // The field is data: the sentence never starts with it.
      if (field) expect(built.message.startsWith(`${field}:`), error.name).toBe(false);
      for (const [how, cross] of crossings) {
        const arrived = cross(built);
        expect(isBridgeError(arrived), `${error.name} via ${how}`).toBe(true);
        expect(arrived, `${error.name} via ${how}`).toEqual(built);
        const view = thrownErrorView(arrived);
        expect(view.code, `${error.name} via ${how}`).toBe(code);
        if (field) {
          expect(view.field).toBe(field);
          expect(fieldErrorOf(arrived)).toEqual({ field, message: built.message });
        }
      }
    }
  });

  it('carries the API error fields: detail, retryAfter in seconds, status, request ID', () => {
    const built = toBridgeError(
      new ApiError({
        kind: 'http',
        status: 429,
        code: 'rate_limited',
        detail: 'Slow down.',
        requestId: 'req-7',
        retryAfterMs: 1_500,
      }),
    );
    expect(built).toMatchObject({
      name: 'ApiError',
      code: 'rate_limited',
      detail: 'Slow down.',
      retryAfter: 2,
      status: 429,
      requestId: 'req-7',
    });
    expect(thrownErrorView(built)).toMatchObject({ code: 'rate_limited', status: 429 });
    const cli = describeFailure(new RemoteError(built));
    expect(cli.code).toBe(EXIT.server);
    expect(cli.message).toContain('code: rate_limited');
    expect(cli.message).toContain('(request req-7)');
  });

  it("gives every failure a code: Node's and SQLite's own codes are causes, not decisions", () => {
    const enoent = Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' });
    expect(toBridgeError(enoent).code).toBe('unexpected');
    expect(toBridgeError(new TypeError('x is undefined')).code).toBe('unexpected');
    expect(toBridgeError('a string').code).toBe('unexpected');
    expect(toBridgeError(Object.assign(new Error('m'), { code: 'brand_new' })).code).toBe(
      'brand_new',
    );
  });

  it('the CLI prints the same code and field, and exits by code', () => {
    const input = describeFailure(
      new RemoteError(
        toBridgeError(new EngineInputError('title', 'must be at most 180 characters')),
      ),
    );
    expect(input).toEqual({
      code: EXIT.failed,
      message: 'must be at most 180 characters (field: title, code: invalid_input)',
    });
    const signIn = describeFailure(new SignInError('apiKey', 'The API key is not accepted.'));
    expect(signIn.code).toBe(EXIT.notSignedIn);
    expect(signIn.message).toContain('field: apiKey, code: sign_in_failed');
    expect(describeFailure(new NotSignedInError()).code).toBe(EXIT.notSignedIn);
  });

  it('never lets a key through, whatever the field, message and detail hold (seeded)', () => {
    console.log(`error codec property seed: ${testSeed} (TEST_SEED replays it)`);
    // The key as a word of the text: glued to more key characters it is another token.
    const key = fakeServiceKey();
    const text = fc
      .tuple(fc.string({ maxLength: 40 }), fc.boolean(), fc.string({ maxLength: 40 }))
      .map(([a, withKey, b]) => (withKey ? `${a} ${key} ${b}` : `${a}${b}`));
    fc.assert(
      fc.property(
        text,
        text,
        text,
        fc.constantFrom('http', 'input', 'sign-in'),
        (f, m, d, kind) => {
          const error =
            kind === 'http'
              ? new ApiError({ kind: 'http', status: 422, code: 'validation_error', detail: d })
              : kind === 'input'
                ? Object.assign(new EngineInputError(f, m), { detail: d })
                : new SignInError('apiKey', m);
          for (const [, cross] of crossings) {
            const arrived = cross(toBridgeError(error));
            expect(isBridgeError(arrived)).toBe(true);
            expect(JSON.stringify(arrived)).not.toContain(key);
            expect(JSON.stringify(thrownErrorView(arrived))).not.toContain(key);
            expect(describeFailure(new RemoteError(arrived as BridgeError)).message).not.toContain(
              key,
            );
          }
        },
      ),
      { numRuns: 300, seed: testSeed },
    );
  });

  it('takes nothing that is not the shape for a BridgeError (seeded)', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const ok = isBridgeError(value);
        if (!ok) return;
        const v = value as BridgeError;
        expect(typeof v.code).toBe('string');
        expect(typeof v.message).toBe('string');
        // Whatever passed, the renderer can word it without throwing.
        expect(thrownErrorView(v).title).toBeTruthy();
      }),
      { numRuns: 500, seed: testSeed },
    );
    expect(isBridgeError({ name: 'E', message: 'm' })).toBe(false);
    expect(isBridgeError({ name: 'E', message: 'm', code: 'x', status: '500' })).toBe(false);
    expect(isBridgeError({ name: 'E', message: 'm', code: 'x', field: 3 })).toBe(false);
  });
});
