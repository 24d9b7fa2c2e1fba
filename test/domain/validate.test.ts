import { describe, expect, it } from 'vitest';
import {
  charCount,
  isControlCharacter,
  isUuidV4,
  validateFile,
  validateFileName,
  validateMessage,
  validateReportInput,
} from '../../src/engine/domain/index';

const valid = {
  program_id: 'acme-web',
  title: 'XSS in search',
  asset: 'https://app.example.com',
  description: '## Steps to reproduce\n\nx\n',
  cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N',
  revision: 0,
};
const fields = (input: unknown) => validateReportInput(input).map((i) => i.field);
const UUID = '6fa459ea-ee8a-4ca4-894e-db77e160355e';

describe('charCount counts code points', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['é', 1],
    ['😀', 1],
    ['a😀b', 3],
    ['\ud83d', 1],
    ['\ude00\ud83d', 2],
    ['👍🏽', 2],
  ])('%j has %d', (text, n) => {
    expect(charCount(text)).toBe(n);
  });
});

describe('validateReportInput', () => {
  it('accepts a valid input', () => {
    expect(validateReportInput(valid)).toEqual([]);
  });
  it('cvss_vector may be absent or empty', () => {
    const { cvss_vector: _omit, ...rest } = valid;
    expect(validateReportInput(rest)).toEqual([]);
    expect(validateReportInput({ ...valid, cvss_vector: '' })).toEqual([]);
  });
  it('empty title, asset and description are fine for a draft', () => {
    expect(validateReportInput({ ...valid, title: '', asset: '', description: '' })).toEqual([]);
  });

  it.each([
    ['', false],
    ['a', true],
    ['acme-web-2', true],
    ['Acme', false],
    ['acme_web', false],
    ['a'.repeat(80), true],
    ['a'.repeat(81), false],
    ['acme web', false],
    ['acme\n', false],
  ])('program_id %j valid: %s', (programId, ok) => {
    expect(fields({ ...valid, program_id: programId })).toEqual(ok ? [] : ['program_id']);
  });

  it.each([
    ['title', 180, 'Title is too long (181 of 180 characters)'],
    ['asset', 1000, 'Asset is too long (1,001 of 1,000 characters)'],
    ['description', 30000, 'Description is too long (30,001 of 30,000 characters)'],
  ] as const)(
    '%s allows %d characters and not one more, and says so in words',
    (field, max, words) => {
      expect(validateReportInput({ ...valid, [field]: 'x'.repeat(max) })).toEqual([]);
      const issues = validateReportInput({ ...valid, [field]: 'x'.repeat(max + 1) });
      expect(issues).toEqual([{ field, message: words }]);
    },
  );

  it('counts an emoji as one character', () => {
    expect(validateReportInput({ ...valid, title: '😀'.repeat(180) })).toEqual([]);
    expect(fields({ ...valid, title: '😀'.repeat(181) })).toEqual(['title']);
  });

  it('whitespace counts in the description', () => {
    expect(fields({ ...valid, description: ' '.repeat(30001) })).toEqual(['description']);
  });

  it('rejects an invalid CVSS vector with the reason', () => {
    const issues = validateReportInput({ ...valid, cvss_vector: 'CVSS:3.1/AV:N' });
    expect(issues).toHaveLength(1);
    expect(issues[0]?.field).toBe('cvss_vector');
    expect(issues[0]?.message).toMatch(/^CVSS vector .*missing metric AC/);
  });

  it('rejects a cvss_vector over 100 characters', () => {
    const issues = validateReportInput({
      ...valid,
      cvss_vector: `${valid.cvss_vector}/${'x'.repeat(60)}`,
    });
    expect(issues).toEqual([
      { field: 'cvss_vector', message: 'CVSS vector is too long (105 of 100 characters)' },
    ]);
  });

  it.each([
    [0, true],
    [7, true],
    [-1, false],
    [1.5, false],
    ['1', false],
    [Number.NaN, false],
    [null, false],
  ])('revision %j valid: %s', (revision, ok) => {
    expect(fields({ ...valid, revision })).toEqual(ok ? [] : ['revision']);
  });

  it('reports every missing required field by name', () => {
    expect(validateReportInput({})).toEqual([
      { field: 'program_id', message: 'Program id is required' },
      { field: 'title', message: 'Title is required' },
      { field: 'asset', message: 'Asset is required' },
      { field: 'description', message: 'Description is required' },
      { field: 'revision', message: 'Revision is required' },
    ]);
  });

  it('rejects wrong types', () => {
    expect(fields({ ...valid, title: 3, cvss_vector: null })).toEqual(['title', 'cvss_vector']);
  });

  it('rejects unknown fields', () => {
    expect(validateReportInput({ ...valid, status: 'draft' })).toEqual([
      { field: 'status', message: '“status” is not a field of a report' },
    ]);
  });

  it.each([null, 'x', [], 3])('rejects a body that is not an object: %j', (body) => {
    expect(fields(body)).toEqual(['body']);
  });

  it('every message starts with the field, in words', () => {
    const issues = validateReportInput({
      program_id: 'X',
      title: 'x'.repeat(181),
      asset: 1,
      description: 'x'.repeat(30001),
      cvss_vector: 'bad',
      revision: -1,
      extra: 1,
    });
    expect(issues).toHaveLength(7);
    expect(issues.map((i) => i.message.split(' ')[0])).toEqual([
      'Program',
      'Title',
      'Asset',
      'Description',
      'CVSS',
      'Revision',
      '“extra”',
    ]);
    for (const issue of issues) expect(issue.message).not.toMatch(/^[a-z]+_[a-z]+\b/);
  });
});

describe('validateFileName / validateFile', () => {
  it.each([
    ['log.txt', true],
    ['a', true],
    ['x'.repeat(180), true],
    ['😀'.repeat(180), true],
    ['x'.repeat(181), false],
    ['', false],
    ['dir/log.txt', false],
    ['dir\\log.txt', false],
    ['log\n.txt', false],
    ['log\u0000', false],
    ['log\u007f', false],
    ['log\u0085', false],
    ['tab\there', false],
    ['spaces and (parens) [1].png', true],
    ['..', true],
    ['ünïcödé 日本.pdf', true],
  ])('%j valid: %s', (name, ok) => {
    expect(validateFileName(name).length === 0).toBe(ok);
  });

  it('names the problem', () => {
    expect(validateFileName('a/b')[0]?.message).toContain('folder separator');
    expect(validateFileName('a\u0001')[0]?.message).toContain('control character');
    expect(validateFileName('')[0]?.message).toBe('File name is empty');
  });

  it('reports a control character once', () => {
    expect(validateFileName('\u0001\u0002')).toHaveLength(1);
  });

  it.each([
    [1, true],
    [10 * 1024 * 1024, true],
    [10 * 1024 * 1024 + 1, false],
    [0, false],
    [-1, false],
    [1.5, false],
  ])('size %d valid: %s', (size, ok) => {
    expect(validateFile({ name: 'a.png', size }).length === 0).toBe(ok);
  });

  it('an empty file says so', () => {
    expect(validateFile({ name: 'a', size: 0 })).toEqual([
      { field: 'size', message: 'File size is 0: the file is empty' },
    ]);
  });

  it('reports name and size problems together', () => {
    expect(validateFile({ name: 'a/b', size: 0 }).map((i) => i.field)).toEqual(['name', 'size']);
  });

  it('isControlCharacter covers C0, DEL and C1 only', () => {
    expect([0, 0x1f, 0x7f, 0x80, 0x9f].every(isControlCharacter)).toBe(true);
    expect([0x20, 0x7e, 0xa0, 0x200b].some(isControlCharacter)).toBe(false);
  });
});

describe('validateMessage', () => {
  it('accepts a body, files, or both', () => {
    expect(validateMessage({ body: 'hello' })).toEqual([]);
    expect(validateMessage({ files: [UUID] })).toEqual([]);
    expect(validateMessage({ body: 'hi', files: [UUID] })).toEqual([]);
  });

  it('needs a body or a file', () => {
    expect(validateMessage({})).toEqual([
      { field: 'body', message: 'Message body is empty: write a message or attach a file' },
    ]);
    expect(validateMessage({ body: '  \n', files: [] }).map((i) => i.field)).toEqual(['body']);
  });

  it('allows 12000 characters', () => {
    expect(validateMessage({ body: '😀'.repeat(12000) })).toEqual([]);
    expect(validateMessage({ body: 'x'.repeat(12001) })).toEqual([
      { field: 'body', message: 'Message body is too long (12,001 of 12,000 characters)' },
    ]);
  });

  it('allows 10 files and not 11', () => {
    const ids = Array.from(
      { length: 11 },
      (_, i) => `6fa459ea-ee8a-4ca4-894e-db77e16035${String(i).padStart(2, '0')}`,
    );
    expect(validateMessage({ files: ids.slice(0, 10) })).toEqual([]);
    expect(validateMessage({ files: ids })).toEqual([
      { field: 'files', message: 'A message takes at most 10 files, not 11' },
    ]);
  });

  it('file ids must be UUIDv4 and distinct', () => {
    expect(validateMessage({ files: ['nope'] }).map((i) => i.message)).toEqual([
      'Message files must be given by their ids (UUIDv4)',
    ]);
    expect(validateMessage({ files: [UUID, UUID] }).map((i) => i.message)).toEqual([
      'Message files list the same file more than once',
    ]);
  });

  it('isUuidV4', () => {
    expect(isUuidV4(UUID)).toBe(true);
    expect(isUuidV4(UUID.toUpperCase())).toBe(true);
    expect(isUuidV4('6fa459ea-ee8a-1ca4-894e-db77e160355e')).toBe(false);
    expect(isUuidV4(3)).toBe(false);
  });
});
