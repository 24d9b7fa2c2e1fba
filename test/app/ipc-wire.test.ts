import { describe, expect, it } from 'vitest';
import { decodeIpc, encodeIpc, IPC_TAG } from './ipc-wire';

/** What a structured clone would hand the page: the same values, types and present keys. */
describe("the harness's IPC answers (ipc-wire.ts)", () => {
  it('carries what a structured clone carries, undefined keys included', () => {
    const value = {
      items: [{ id: 'a', severity: undefined, score: 6.1, title: 'x\u0000y "quoted" \\ é' }],
      missing: undefined,
      list: [1, undefined, null, -2.5],
      when: new Date('2026-01-02T03:04:05.000Z'),
      odd: [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY],
      big: 12345678901234567890n,
      bytes: new Uint8Array([0, 1, 255]),
      buffer: Buffer.from('hi'),
      map: new Map<string, unknown>([['k', { v: undefined }]]),
      set: new Set(['a', 'b']),
      error: new TypeError('no such report'),
    };
    const back = decodeIpc(encodeIpc(value)) as typeof value;
    expect(back.items[0]).toEqual(value.items[0]);
    expect(Object.keys(back.items[0] ?? {})).toContain('severity');
    expect('missing' in back).toBe(true);
    expect(back.list).toEqual([1, undefined, null, -2.5]);
    expect(back.when).toBeInstanceOf(Date);
    expect(back.when.getTime()).toBe(value.when.getTime());
    expect(back.odd).toEqual(value.odd);
    expect(back.big).toBe(value.big);
    expect(back.bytes).toEqual(new Uint8Array([0, 1, 255]));
    expect(Array.from(back.buffer)).toEqual([104, 105]);
    expect(back.map.get('k')).toEqual({ v: undefined });
    expect(back.set).toEqual(new Set(['a', 'b']));
    expect(back.error).toBeInstanceOf(Error);
    expect([back.error.name, back.error.message]).toEqual(['TypeError', 'no such report']);
  });

  it('carries plain answers and bare values as JSON does', () => {
    for (const value of [null, 0, 'text', true, [], {}, { a: [{ b: 'c' }] }]) {
      expect(decodeIpc(encodeIpc(value))).toEqual(value);
    }
    expect(decodeIpc(encodeIpc(undefined))).toBeUndefined();
  });

  it('refuses a function or a symbol, as a structured clone does', () => {
    expect(() => encodeIpc({ items: [{ open: () => 1 }] })).toThrow(/could not be cloned.*"open"/);
    expect(() => encodeIpc({ kind: Symbol('x') })).toThrow(/could not be cloned.*"kind"/);
  });

  it('refuses an object holding its tag key instead of misreading it', () => {
    expect(() => encodeIpc({ nested: { [IPC_TAG]: 'u' } })).toThrow(/tag key at "nested"/);
  });
});
