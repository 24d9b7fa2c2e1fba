import { describe, expect, it } from 'vitest';
import {
  classifyLink,
  isDangerousEditorHref,
  sanitizeEditorHref,
} from '../../src/renderer/src/lib/safe-url';

describe('classifyLink', () => {
  it.each([
    ['https://example.com/x', 'https://example.com/x'],
    ['HTTP://Example.com', 'http://example.com/'],
    ['mailto:sec@example.com', 'mailto:sec@example.com'],
  ])('allows %s', (url, href) => {
    expect(classifyLink(url)).toEqual({ kind: 'external', href });
  });

  it.each([
    'javascript:alert(1)',
    ' JAVASCRIPT:alert(1)',
    'java\nscript:alert(1)',
    'java\u0000script:alert(1)',
    '\u200bjavascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:x',
    'file:///etc/passwd',
    'blob:https://example.com/uuid',
    '//evil.example',
    '/etc/passwd',
    'relative/path',
    'https://user:pass@example.com/',
    'https://',
    '',
  ])('blocks %j', (url) => {
    expect(classifyLink(url).kind).toBe('blocked');
  });

  it('recognises report file links, with their ids decoded', () => {
    expect(classifyLink('/reports/r%201/files/f-2?download')).toEqual({
      kind: 'file',
      target: { reportId: 'r 1', fileId: 'f-2' },
    });
    expect(classifyLink('/reports/r/files/f/extra').kind).toBe('blocked');
  });
});

describe('editor link targets', () => {
  it('flags schemes other than http, https and mailto, even when disguised', () => {
    for (const bad of [
      'javascript:x',
      'JavaScript:x',
      'java\tscript:x',
      ' data:x',
      'vbscript:x',
      'file:x',
    ]) {
      expect(isDangerousEditorHref(bad)).toBe(true);
    }
    for (const ok of [
      'https://a.example',
      'mailto:a@b.c',
      '/reports/r/files/f',
      'notes.md',
      '#part',
      '',
    ]) {
      expect(isDangerousEditorHref(ok)).toBe(false);
    }
  });

  it('sanitizes an href to an allowed one or nothing', () => {
    expect(sanitizeEditorHref('javascript:alert(1)')).toBe('');
    expect(sanitizeEditorHref('https://a.example')).toBe('https://a.example/');
    expect(sanitizeEditorHref(' /reports/r/files/f ')).toBe('/reports/r/files/f');
  });
});
