/**
 * A report written as a Markdown file with front matter reads back as it was written.
 * Over generated reports (URLs, code fences, tables, payloads, `---` lines and front-matter-like
 * blocks inside the description, file links), export's rewrite of the file links to relative
 * paths and import's rewrite back give the same description with only the ids changed, and the
 * front matter gives back every field.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatReportFile,
  parseReportFile,
  type ReportFrontMatter,
} from '../../src/engine/report-files/front-matter';
import {
  encodeRelativePath,
  findLocalLinks,
  linksToFiles,
  linksToRelative,
} from '../../src/engine/report-files/links';
import { uniqueName } from '../../src/engine/report-files/names';
import { fileLinkTarget, findFileLinks } from '../../src/shared/rules';
import { description, FILE_IDS, REPORT_ID, weightedRun } from '../support/generated-texts';

const NEW_REPORT = '9b2f0d3e-6a1c-4e8b-b7d5-3c2a1f0e9d8c';
const NEW_FILES = ['5d6e7f80-1a2b-4c3d-8e4f-a0b1c2d3e4f5', '0e1f2a3b-4c5d-4e6f-9a0b-c1d2e3f4a5b6'];

/** What researchers paste besides prose: payloads, front-matter-like blocks, rules, fences. */
const extraBlock = fc.constantFrom(
  '---\ntitle: not the real title\nprogram: other-program\n---',
  '---',
  '***',
  '...',
  '"><svg/onload=alert(document.domain)>',
  "' OR 1=1-- -",
  '{{7*7}} ${7*7} <%= 7*7 %>',
  '```yaml\n---\nkey: value\n---\n```',
  '```http\nPOST /api/login HTTP/1.1\nHost: app.example.com\n\n{"user":"admin","pass":"x"}\n```',
  '| a | b |\n| --- | --- |\n| `|` | [x](https://example.com/?a=1&b=2) |',
  'See [the PoC](poc.html) beside it, and `../../etc/passwd`.',
);

const report = weightedRun({ maxLength: 4 }, [3, description], [1, extraBlock]).map((parts) =>
  parts.join('\n\n'),
);

/** File names as researchers have them: spaces, brackets, accents, percent signs, duplicates. */
const fileName = fc.constantFrom(
  'poc.txt',
  'screen shot (1).png',
  'résumé #2.pdf',
  '100% [final].har',
  'a)b(c.txt',
  'poc.txt',
  'x%20y.png',
);

const text = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.constantFrom(
    '---',
    'Stored XSS: "quotes" and \'apostrophes\' # not a comment',
    '- a list?',
    'key: value',
    '*.example.com',
    'null',
    '123',
    'true',
    '',
    ' leading and trailing ',
  ),
);

describe('report files round-trip', () => {
  it('front matter and description come back as written, file links with new ids', () => {
    fc.assert(
      fc.property(
        report,
        text,
        text,
        fc.constantFrom('', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N'),
        fc.tuple(fileName, fileName),
        (desc, title, asset, cvss, names) => {
          // Export: each file under files/ with a unique name, its links made relative.
          const taken = new Set<string>();
          const paths = new Map<string, string>(
            FILE_IDS.map((id, i) => [
              id,
              encodeRelativePath(`files/${uniqueName(names[i] ?? 'f', taken)}`),
            ]),
          );
          const meta: ReportFrontMatter = {
            report_id: REPORT_ID,
            program: 'acme-web',
            title,
            asset,
            cvss_vector: cvss,
            cvss_score: cvss ? 6.1 : null,
            status: 'draft',
          };
          const file = formatReportFile(
            meta,
            linksToRelative(desc, (id) => paths.get(id) ?? null),
          );
          // Import.
          const parsed = parseReportFile(file);
          if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
          expect(parsed.meta).toEqual({ program: 'acme-web', title, asset, cvss_vector: cvss });
          const byPath = new Map<string, string>();
          FILE_IDS.forEach((id, i) => {
            const path = decodeURIComponent(paths.get(id) ?? '');
            byPath.set(path, fileLinkTarget(NEW_REPORT, NEW_FILES[i] ?? ''));
          });
          // Local links other than the exported files are the description's own (`poc.html`, a
          // write-up's `1.png` or `./other-page.md`): kept as they were.
          const own = new Set(findLocalLinks(desc).map((l) => l.path));
          const local = findLocalLinks(parsed.description).map((l) => l.path);
          for (const path of local) {
            if (!byPath.has(path)) expect(own.has(path) || path === 'poc.html', path).toBe(true);
          }
          const back = linksToFiles(parsed.description, (path) => byPath.get(path) ?? null);
          // Only the link targets changed: mapped back, the description is the one written.
          let restored = back;
          FILE_IDS.forEach((id, i) => {
            restored = restored
              .split(fileLinkTarget(NEW_REPORT, NEW_FILES[i] ?? ''))
              .join(fileLinkTarget(REPORT_ID, id));
          });
          expect(restored).toBe(desc);
          const shape = (md: string, ids: readonly string[]) =>
            findFileLinks(md).map((l) => [
              l.kind,
              l.text,
              (ids as readonly string[]).indexOf(l.fileId),
            ]);
          expect(shape(back, NEW_FILES)).toEqual(shape(desc, FILE_IDS));
        },
      ),
      { numRuns: 150 },
    );
  }, 180_000);

  it('a file written elsewhere, with CRLF line ends and a BOM, reads the same', () => {
    const file = '\uFEFF---\r\nprogram: acme-web\r\ntitle: "XSS"\r\n---\r\n## Steps\r\n';
    const parsed = parseReportFile(file);
    expect(parsed).toMatchObject({ ok: true, meta: { program: 'acme-web', title: 'XSS' } });
    if (parsed.ok) expect(parsed.description).toBe('## Steps\r\n');
  });
});
