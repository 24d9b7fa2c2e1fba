import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/shared/api';
import { describeError, errorWords } from '../../src/shared/errors/describe-error';

describe('7. Errors — words for every code, with what to do next', () => {
  it.each(Object.keys(ERROR_CODES))('%s has a title and advice', (code) => {
    const words = errorWords(code);
    expect(words?.title.length).toBeGreaterThan(5);
    expect(words?.advice.length).toBeGreaterThan(5);
  });

  it('quotes the X-Request-ID for 500s only', () => {
    expect(describeError({ status: 500, code: 'internal_error', requestId: 'r-1' }).requestId).toBe(
      'r-1',
    );
    expect(
      describeError({ status: 409, code: 'pool_low', requestId: 'r-2' }).requestId,
    ).toBeUndefined();
  });

  /** The words for an error whose detail the advice must quote as the server wrote it. */
  function quotingDetail(status: number, code: string, detail: string) {
    const view = describeError({ status, code, detail });
    expect(view.advice).toContain(detail);
    return view;
  }

  it('names the field of a validation error', () => {
    quotingDetail(422, 'validation_error', 'title: must be at most 180 characters');
  });

  it('says where credentials held a write back', () => {
    const view = quotingDetail(0, 'secrets_found', '1 possible credential in Description');
    expect(view.title).toBe('Held back: possible credentials');
  });

  it('a failure on this computer (status 0) says the server never saw it and what to do, with the cause last', () => {
    const view = describeError({
      status: 0,
      code: 'client_error',
      detail: "Expected ',' or '}' after property value in JSON at position 195",
    });
    expect(view.title).toBe('Not sent: the app failed on this computer');
    expect(view.title).not.toMatch(/Unexpected error|\(0\)/);
    expect(view.advice).toMatch(/^The server has not seen this change\. Press Retry/);
    expect(view.advice).toContain('Help → Export diagnostics…');
    expect(view.advice).toMatch(/Cause: Expected ',' or '\}' after property value/);
    const unknown = describeError({ status: 0, code: 'something_new' });
    expect(unknown.title).toBe('Not sent: the app failed on this computer');
  });

  it('an unknown code still gets words, from the detail', () => {
    const view = describeError({ status: 418, code: 'teapot', detail: 'Short and stout.' });
    expect(view.title).toContain('418');
    expect(view.advice).toBe('Short and stout.');
    expect(errorWords('toString')).toBeUndefined();
  });
});
