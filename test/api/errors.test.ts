import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  apiErrorFromResponse,
  apiErrorFromThrown,
  parseRetryAfter,
} from '../../src/engine/api/errors';
import { fakeApiKey } from '../secrets/support';

const now = Date.UTC(2030, 0, 1, 12, 0, 0);

describe('parseRetryAfter', () => {
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('30', { now })).toBe(30_000);
    expect(parseRetryAfter(' 2 ', { now })).toBe(2_000);
    expect(parseRetryAfter('1.5', { now })).toBe(1_500);
  });

  it('reads an HTTP date against the response Date, not the local clock', () => {
    const serverNow = new Date(now - 3_600_000); // local clock one hour ahead of the server
    const at = new Date(serverNow.getTime() + 45_000).toUTCString();
    expect(parseRetryAfter(at, { now, responseDate: serverNow.toUTCString() })).toBe(45_000);
  });

  it('falls back to the local clock when the response has no usable Date', () => {
    const at = new Date(now + 20_000).toUTCString();
    expect(parseRetryAfter(at, { now })).toBe(20_000);
    expect(parseRetryAfter(at, { now, responseDate: 'yesterday-ish' })).toBe(20_000);
  });

  it('clamps to between one second and one hour', () => {
    expect(parseRetryAfter('0', { now })).toBe(1_000);
    expect(parseRetryAfter(new Date(now - 60_000).toUTCString(), { now })).toBe(1_000);
    expect(parseRetryAfter('86400', { now })).toBe(3_600_000);
    expect(parseRetryAfter('5', { now, minMs: 10_000 })).toBe(10_000);
    expect(parseRetryAfter('5', { now, maxMs: 2_000 })).toBe(2_000);
  });

  it('ignores an absent or unreadable value', () => {
    expect(parseRetryAfter(null, { now })).toBeUndefined();
    expect(parseRetryAfter('', { now })).toBeUndefined();
    expect(parseRetryAfter('soon', { now })).toBeUndefined();
    expect(parseRetryAfter('-5', { now })).toBeUndefined();
  });
});

describe('apiErrorFromResponse', () => {
  function response(status: number, headers: Record<string, string> = {}): Response {
    return new Response(null, { status, headers: { 'X-Request-ID': 'req-123', ...headers } });
  }

  it('takes code, detail, current, request id and Retry-After from the answer', () => {
    const current = { id: 'r1', revision: 7 };
    const error = apiErrorFromResponse(
      response(409, { 'Retry-After': '3' }),
      { code: 'revision_conflict', detail: 'stale revision', current },
      { now },
    );
    expect(error).toMatchObject({
      kind: 'http',
      status: 409,
      code: 'revision_conflict',
      detail: 'stale revision',
      requestId: 'req-123',
      retryAfterMs: 3_000,
    });
    expect(error.current).toEqual(current);
    expect(error.message).toBe('409 revision_conflict: stale revision [request req-123]');
  });

  it('synthesizes a code when the body is not the documented JSON', () => {
    const error = apiErrorFromResponse(response(502), '<html>Bad gateway</html>', { now });
    expect(error).toMatchObject({
      status: 502,
      code: 'http_502',
      detail: '<html>Bad gateway</html>',
    });
    expect(apiErrorFromResponse(response(500), undefined, { now }).detail).toBe('HTTP 500');
  });

  it('joins the list-form detail of a 422', () => {
    const body = {
      code: 'validation_error',
      detail: [{ loc: ['body', 'email'], msg: 'not an e-mail address', type: 'value_error' }],
    };
    expect(apiErrorFromResponse(response(422), body, { now }).detail).toBe(
      'body.email: not an e-mail address',
    );
  });

  it('never carries the API key, even if the server echoed it', () => {
    const key = fakeApiKey();
    const error = apiErrorFromResponse(
      response(401),
      { code: 'unauthenticated', detail: `bad token ${key}` },
      { now, secret: key },
    );
    for (const text of [
      error.message,
      error.detail,
      String(error),
      inspect(error),
      JSON.stringify(error),
      error.stack ?? '',
    ]) {
      expect(text).not.toContain(key);
    }
  });
});

describe('apiErrorFromThrown', () => {
  it('names the socket error hidden in fetch failures', () => {
    const socket = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    const error = apiErrorFromThrown(new TypeError('fetch failed', { cause: socket }), {});
    expect(error).toMatchObject({ kind: 'network', status: 0, code: 'network_error' });
    expect(error.detail).toContain('UND_ERR_SOCKET: other side closed');
  });

  it('tells a timeout and a cancellation apart from a network failure', () => {
    expect(apiErrorFromThrown(new Error('aborted'), { timedOut: true })).toMatchObject({
      kind: 'timeout',
      code: 'timeout',
    });
    expect(apiErrorFromThrown(new Error('aborted'), { aborted: true })).toMatchObject({
      kind: 'network',
      code: 'aborted',
    });
  });

  it('treats an unreadable success body as a bad answer, not as being offline', () => {
    const error = apiErrorFromThrown(new SyntaxError('Unexpected token < in JSON'), {});
    expect(error).toMatchObject({ kind: 'http', status: 502, code: 'invalid_response' });
  });

  it('keeps a key out of a network failure message', () => {
    const key = fakeApiKey();
    const error = apiErrorFromThrown(new Error(`cannot send header Bearer ${key}`), {
      secret: key,
    });
    expect(`${error.message} ${inspect(error)}`).not.toContain(key);
  });
});
