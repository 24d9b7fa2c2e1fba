/**
 * The Markdown parser run once while the list sits idle, before the first report opens: its code
 * is compiled then (lazily, on first use, it cost the first open about a fifth of its time).
 */
import { parseMarkdown } from '@shared/rules/markdown';

/** What a report's text holds: the template's headings, a fenced request, a table, a list, links. */
const SAMPLE = [
  '## Summary',
  '',
  "The *export* endpoint on `*.example.com` returns **other** accounts' invoices: [docs](https://example.com/a_b) <https://x.com> a@b.co ~~old~~.",
  '',
  '## Steps to reproduce',
  '',
  '1. Sign in as user A.',
  '2. Send:',
  '',
  '```http',
  'GET /api/v2/invoices/1337 HTTP/1.1',
  'Authorization: Bearer [REDACTED]',
  '```',
  '',
  '- [x] checked',
  '  > quoted',
  '',
  '| id | role |',
  '| --- | --- |',
  '| 1 | admin |',
  '',
  '    indented',
  '',
  '<details>x</details> \\* [^1]',
  '',
  '[^1]: note',
  '[ref]: https://example.com "title"',
  '',
].join('\n');

export function warmUpMarkdownParser(): void {
  parseMarkdown(SAMPLE);
}
