import { describe, expect, it } from 'vitest';
import { validateArgs } from '../../src/main/validate-args';

/**
 * main's argument check, unit by unit: only a plain object's own, declared keys pass. A key that
 * `in` would find on Object.prototype (`constructor`, `toString`, `__defineGetter__`…) is an
 * undeclared field like any other, and an inherited value never stands in for a required one.
 * (test/app/main-ipc.test.ts sends the same refusals through the built app.)
 */
const REPORT = '3f1c2a9e-8d4b-4c1e-9f2a-7b6c5d4e3f21';
const FILE = '0b4c7c1e-2f9a-4d3e-8a6b-5c4d3e2f1a0b';

describe('validateArgs: own, declared keys only', () => {
  it.each([
    'constructor',
    'toString',
    'valueOf',
    'hasOwnProperty',
    'isPrototypeOf',
    '__defineGetter__',
    '__lookupSetter__',
  ])('refuses %s as a key of an object argument', (key) => {
    const connect = { serverUrl: 'http://127.0.0.1:1', apiKey: 'k', [key]: 'x' };
    expect(() => validateArgs('connect', [connect])).toThrow(`${key}: is not expected`);
    expect(() => validateArgs('listReports', [{ [key]: 1 }])).toThrow(`${key}: is not expected`);
    expect(() => validateArgs('attachFiles', [REPORT, [{ file: FILE, [key]: 0 }]])).toThrow(
      `${key}: is not expected`,
    );
  });

  it('refuses __proto__ sent as an own key (what JSON or a structured clone can carry)', () => {
    const hostile = JSON.parse('{"serverUrl":"http://x","apiKey":"k","__proto__":{"a":1}}');
    expect(() => validateArgs('connect', [hostile])).toThrow('__proto__: is not expected');
  });

  it('refuses a required key that is only inherited', () => {
    const inherits = Object.assign(Object.create({ apiKey: 'k' }) as object, {
      serverUrl: 'http://x',
    });
    expect(() => validateArgs('connect', [inherits])).toThrow('apiKey: is missing');
  });

  it('refuses a call name inherited from Object.prototype', () => {
    expect(() => validateArgs('constructor' as 'getStatus', [])).toThrow('Unknown call');
    expect(() => validateArgs('toString' as 'getStatus', [])).toThrow('Unknown call');
  });

  it('accepts the declared keys', () => {
    expect(() =>
      validateArgs('connect', [{ serverUrl: 'http://127.0.0.1:1', apiKey: 'k' }]),
    ).not.toThrow();
    expect(() =>
      validateArgs('postMessage', [REPORT, { body: 'hi', files: [FILE] }]),
    ).not.toThrow();
  });
});
