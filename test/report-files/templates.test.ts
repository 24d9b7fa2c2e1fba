import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyTemplate,
  fillPlaceholders,
  withPlaceholders,
} from '../../src/engine/report-files/templates';
import { checkDescription, descriptionTemplate, TEMPLATE_HEADINGS } from '../../src/shared/rules';
import { anyDescription } from '../support/generated-texts';
import { reportTextArb } from '../support/report-texts';
import { parseMarkdown, startOffset, endOffset } from '../../src/shared/rules/markdown';

const TEMPLATE = `Summary: reflected XSS on {{asset}} ({{program}}).

## Steps to reproduce

1. Open {{asset}}?q=%22%3E%3Csvg%20onload%3Dalert(1)%3E
2. See the alert.

### Request

\`\`\`http
GET /search?q="><svg onload=alert(1)> HTTP/1.1
Host: {{ asset }}
\`\`\`

## Security impact

Session theft on {{program}}. {{unknown}} stays.
`;

describe('templates', () => {
  it('fills the program’s headings with the template’s sections, placeholders filled', () => {
    const body = fillPlaceholders(TEMPLATE, { asset: 'https://app.example.com', program: 'Acme' });
    const out = applyTemplate(body, descriptionTemplate());
    expect(out).toBe(
      [
        'Summary: reflected XSS on https://app.example.com (Acme).',
        '',
        '## Steps to reproduce',
        '',
        '1. Open https://app.example.com?q=%22%3E%3Csvg%20onload%3Dalert(1)%3E',
        '2. See the alert.',
        '',
        '### Request',
        '',
        '```http',
        'GET /search?q="><svg onload=alert(1)> HTTP/1.1',
        'Host: https://app.example.com',
        '```',
        '',
        '## Expected behavior',
        '',
        '## Actual behavior',
        '',
        '## Security impact',
        '',
        'Session theft on Acme. {{unknown}} stays.',
        '',
        '',
      ].join('\n'),
    );
    // The frame's headings, all of them, in its order.
    expect(checkDescription(out).sections.map((s) => [s.heading, s.present])).toEqual(
      TEMPLATE_HEADINGS.map((h) => [h, true]),
    );
  });

  it('a draft’s own asset, title and program become placeholders, and fill back the same', () => {
    const values = {
      asset: 'https://app.example.com',
      title: 'XSS in search',
      program: 'Acme Web',
    };
    const text = 'XSS in search: https://app.example.com/search on Acme Web.';
    const template = withPlaceholders(text, values);
    expect(template).toBe('{{title}}: {{asset}}/search on {{program}}.');
    expect(fillPlaceholders(template, values)).toBe(text);
  });

  it('a value becomes its placeholder only where it stands whole, and never in code', () => {
    // A walk of the app saved a template from a draft for `example.com`: `*.example.com` became
    // `*.{{asset}}` and the pasted request's `Host: api.example.com` became `api.{{asset}}`.
    const text = [
      'Scope: *.example.com and api.example.com; the bug is on example.com.',
      'Also https://example.com/login?next=//evil.example and example.com.evil.test.',
      '',
      'Run `curl -H "Host: example.com" https://example.com/`:',
      '',
      '```http',
      'POST /api/v2/users/1337/email HTTP/1.1',
      'Host: example.com',
      'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMzM3In0.c2lnbmF0dXJl',
      '',
      '{"email": "attacker@evil.example", "site": "example.com"}',
      '```',
      '',
      '    GET / HTTP/1.1',
      '    Host: example.com',
      '',
      '| Host | Payload |',
      '| --- | --- |',
      '| example.com | C:\\Windows\\win.ini |',
    ].join('\n');
    const values = { asset: 'example.com', title: 'Email change IDOR', program: 'Acme Web' };
    const template = withPlaceholders(text, values);
    expect(template.split('\n').slice(0, 4)).toEqual([
      'Scope: *.example.com and api.example.com; the bug is on {{asset}}.',
      'Also https://{{asset}}/login?next=//evil.example and example.com.evil.test.',
      '',
      'Run `curl -H "Host: example.com" https://example.com/`:',
    ]);
    expect(template).toContain(
      '```http\nPOST /api/v2/users/1337/email HTTP/1.1\nHost: example.com\n',
    );
    expect(template).toContain('"site": "example.com"}');
    expect(template).toContain('    Host: example.com\n');
    expect(template).toContain('| {{asset}} | C:\\Windows\\win.ini |');
    expect(fillPlaceholders(template, values)).toBe(text);
  });

  it('real report texts: the template fills back to the text, its code untouched (seeded)', () => {
    const code = (markdown: string): string[] => {
      const found: string[] = [];
      const visit = (node: ReturnType<typeof parseMarkdown>['children'][number]): void => {
        if (node.type === 'code' || node.type === 'inlineCode')
          found.push(markdown.slice(startOffset(node), endOffset(node)));
        else if ('children' in node) for (const child of node.children) visit(child);
      };
      for (const node of parseMarkdown(markdown).children) visit(node);
      return found;
    };
    let replaced = 0;
    let runs = 0;
    fc.assert(
      fc.property(
        reportTextArb((text) => !text.includes('{{')),
        fc.nat(),
        ({ text }, pick) => {
          // The asset: a host the report names (as a researcher's asset field often is).
          const hosts = [...text.matchAll(/\b(?:[a-z0-9-]+\.)+[a-z]{2,}\b/g)].map((m) => m[0]);
          const asset = hosts.length > 0 ? hosts[pick % hosts.length] : 'app.example.com';
          const title =
            text
              .split('\n')
              .find((line) => line.trim().length > 8)
              ?.trim() ?? '';
          const values = { asset: asset ?? '', title, program: 'Acme Web' };
          const template = withPlaceholders(text, values);
          runs++;
          if (template !== text) replaced++;
          expect(fillPlaceholders(template, values)).toBe(text);
          expect(code(template)).toEqual(code(text));
        },
      ),
      { numRuns: 200 },
    );
    console.log(`templates from real report texts: ${replaced}/${runs} with a placeholder made`);
    expect(replaced).toBeGreaterThan(0);
  });

  it('keeps an indented request as code and closes a fence the template left open', () => {
    // Found by the seed sweep (TEST_SEED=10): `.trim()` took the first line's indentation, so an
    // indented code block holding a fence became an open fence that swallowed every frame heading.
    const indented =
      '     ```http\n     POST /login HTTP/1.1\n     Host: www.example.com\n     Content-Length: 32\n\n';
    const open = `## Steps to reproduce\n\n\`\`\`http\nPOST /login HTTP/1.1\nHost: www.example.com\n\n{"user":"admin"}\n`;
    for (const body of [indented, open]) {
      const out = applyTemplate(body);
      expect(
        checkDescription(out).sections.every((s) => s.present),
        out,
      ).toBe(true);
    }
    expect(applyTemplate(indented)).toContain('     POST /login HTTP/1.1');
    expect(applyTemplate(open)).toContain('{"user":"admin"}\n```\n');
  });

  it('any Markdown as a template keeps every frame heading, and never throws', () => {
    fc.assert(
      fc.property(anyDescription, (body) => {
        const out = applyTemplate(body);
        const sections = checkDescription(out).sections;
        expect(sections.every((s) => s.present)).toBe(true);
      }),
      { numRuns: 150 },
    );
  }, 120_000);
});
