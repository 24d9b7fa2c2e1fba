import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, redactedJson, redactKeys } from '../../src/shared/api/redact';
import { reportExcerptArb, reportTexts } from '../support/report-texts';

const SEED = Number(process.env.PROPERTY_SEED) || Date.now() % 2 ** 31;

const parsedDescription = (text: string): string =>
  (JSON.parse(redactedJson({ description: text })) as { description: string }).description;

/** `Bearer <token>` as redactKeys takes it: what may differ between a line and its redaction. */
const BEARER_TOKEN = /\b(Bearer)[ \t]+(?=[A-Za-z0-9._~+/-]{8})[^\s"',;]+/gi;

describe('redactedJson', () => {
  it('keeps JSON readable when a bearer line comes before a JSON body (the trapped draft)', () => {
    for (const description of [
      'Authorization: Bearer [REDACTED:jwt]\n\n{"ok": true}',
      'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl\n\n{"ok": true}',
      'Bearer abcdefgh12345678\\"quoted\\"',
      'Bearer "abcdefgh12345678"',
    ]) {
      expect(() => JSON.parse(redactedJson({ description }))).not.toThrow();
    }
  });

  it("keeps the next header's name after a redacted bearer token", () => {
    const request =
      'GET /api/me HTTP/1.1\nAuthorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln\nUser-Agent: Mozilla/5.0';
    expect(parsedDescription(request)).toBe(
      `GET /api/me HTTP/1.1\nAuthorization: Bearer ${REDACTED}\nUser-Agent: Mozilla/5.0`,
    );
    expect(redactKeys('Authorization: Bearer\nUser-Agent: x')).toBe(
      'Authorization: Bearer\nUser-Agent: x',
    );
  });

  it('still removes the bearer value and key-shaped strings from every string it holds', () => {
    const key = `sbx_${'A'.repeat(43)}`;
    const json = redactedJson({
      detail: `sent Authorization: Bearer ${key}`,
      nested: [{ [key]: key }],
    });
    expect(json).not.toContain(key);
    expect(JSON.parse(json)).toEqual({
      detail: `sent Authorization: Bearer ${REDACTED}`,
      nested: [{ [REDACTED]: REDACTED }],
    });
  });

  it('reads back every real report text: only bearer values and key shapes change (found/total)', () => {
    const texts = reportTexts();
    let unreadable = 0;
    let changedBeyond = 0;
    let bearers = 0;
    for (const { name, text } of texts) {
      let back: string;
      try {
        back = parsedDescription(text);
      } catch {
        unreadable++;
        continue;
      }
      expect(back, name).toBe(redactKeys(text));
      const before = text.split('\n');
      const after = back.split('\n');
      expect(after.length, name).toBe(before.length);
      before.forEach((line, i) => {
        if (line === after[i]) return;
        if (line.replace(BEARER_TOKEN, `$1 ${REDACTED}`) === after[i]) bearers++;
        else changedBeyond++;
      });
      // Every header name stays.
      for (const header of text.match(/^[A-Za-z][A-Za-z0-9-]*:(?= )/gm) ?? []) {
        expect(back, `${name}: ${header}`).toContain(header);
      }
    }
    console.log(
      `redactedJson on ${texts.length} real report texts: unreadable ${unreadable}/${texts.length}, ` +
        `lines with a bearer value redacted ${bearers}, other lines changed (key-shaped words) ${changedBeyond}`,
    );
    expect(unreadable).toBe(0);
  });

  it('reads back any run of real report blocks inside any value (seeded)', () => {
    console.log(`redactedJson property seed: ${SEED}`);
    fc.assert(
      fc.property(reportExcerptArb(), fc.string(), (excerpt, extra) => {
        const value = { description: excerpt, nested: { list: [excerpt, extra] } };
        const back = JSON.parse(redactedJson(value)) as typeof value;
        expect(back.description).toBe(redactKeys(excerpt));
        expect(back.nested.list).toEqual([redactKeys(excerpt), redactKeys(extra)]);
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});
