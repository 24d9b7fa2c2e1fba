/**
 * Every rule that reads a description accepts any Markdown and never throws: the file links, the
 * template check, the limits and the editor's offsets, over generated descriptions and over every
 * CommonMark example. Each property also checks what the rule promises (offsets inside the text,
 * an inserted link found exactly once, a removed link gone).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkDescription,
  findFileLinks,
  insertFileLinkAt,
  removeFileLinks,
  TEMPLATE_HEADINGS,
} from '../../src/shared/rules';
import { parseMarkdown, startOffset, endOffset } from '../../src/shared/rules/markdown';
import { validateReportInput } from '../../src/engine/domain/validate';
import { offsetFromMarked, snapOutOfWord } from '../../src/renderer/src/lib/editor-offset';
import type { Nodes } from 'mdast';
import {
  anyDescription,
  COMMONMARK_EXAMPLES,
  FILE_IDS,
  REPORT_ID,
} from '../support/generated-texts';

/** Runs per generated property (closing notes count them). */
export const GENERATED_RUNS = 400;
/**
 * These runs are CPU-bound (about 7–14 s on a quiet machine; past the default 30 s on a loaded
 * one). They check correctness, not speed, so they get room.
 */
const PROPERTY_RUN = { timeout: 120_000 };
const NEW_FILE = '0f8fad5b-d9cb-469f-a165-70867728950e';

function ids(markdown: string): string[] {
  return findFileLinks(markdown)
    .map((l) => l.fileId)
    .sort();
}

/** Every rule on one description; throws (failing the property) when a rule does. */
function checkRules(markdown: string, at: number): void {
  const tree = parseMarkdown(markdown);
  const walk = (node: Nodes): void => {
    const start = startOffset(node);
    const end = endOffset(node);
    expect(node.position, node.type).toBeDefined();
    expect(0 <= start && start <= end && end <= markdown.length, node.type).toBe(true);
    if ('children' in node) for (const child of node.children as Nodes[]) walk(child);
  };
  walk(tree);

  const links = findFileLinks(markdown);
  for (const link of links) {
    expect(0 <= link.start && link.start <= link.end && link.end <= markdown.length).toBe(true);
  }

  const check = checkDescription(markdown);
  expect(check.sections.map((s) => s.heading)).toEqual([...TEMPLATE_HEADINGS]);

  validateReportInput({
    program_id: 'acme',
    title: 't',
    asset: 'a',
    description: markdown,
    cvss_vector: '',
    revision: 0,
  });

  for (const id of new Set(links.map((l) => l.fileId))) {
    const removed = removeFileLinks(markdown, id);
    expect(ids(removed)).not.toContain(id);
    expect(removeFileLinks(removed, id)).toBe(removed);
  }

  const inserted = insertFileLinkAt(markdown, at, {
    name: 'har capture.har',
    reportId: REPORT_ID,
    fileId: NEW_FILE,
  });
  expect(ids(inserted.markdown).filter((id) => id === NEW_FILE)).toHaveLength(1);
  expect(inserted.end).toBeGreaterThan(0);
  expect(inserted.end).toBeLessThanOrEqual(inserted.markdown.length);

  const snapped = snapOutOfWord(markdown, at);
  expect(snapped >= 0 && snapped <= markdown.length).toBe(true);
  const marker = 'BDDROPx1X';
  const marked = markdown.slice(0, Math.max(0, Math.min(at, markdown.length))) + marker;
  const offset = offsetFromMarked(marked + markdown.slice(at), marker, markdown);
  expect(offset >= 0 && offset <= markdown.length).toBe(true);
}

describe('rules over generated descriptions', PROPERTY_RUN, () => {
  it('never throw, and keep their promises', () => {
    fc.assert(
      fc.property(anyDescription, fc.nat({ max: 4000 }), (markdown, at) => {
        checkRules(markdown, at % (markdown.length + 1));
      }),
      { numRuns: GENERATED_RUNS },
    );
  });

  it('inserting a file link keeps every other file link', () => {
    fc.assert(
      fc.property(anyDescription, fc.nat({ max: 4000 }), (markdown, at) => {
        const before = ids(markdown);
        const { markdown: after } = insertFileLinkAt(markdown, at % (markdown.length + 1), {
          name: 'poc.txt',
          reportId: REPORT_ID,
          fileId: NEW_FILE,
        });
        expect(ids(after)).toEqual([...before, NEW_FILE].sort());
      }),
      { numRuns: GENERATED_RUNS },
    );
  });
});

describe('rules over the CommonMark examples', PROPERTY_RUN, () => {
  it(`never throw on any of the ${COMMONMARK_EXAMPLES.length} examples, at every kind of offset`, () => {
    for (const example of COMMONMARK_EXAMPLES) {
      const md = example.markdown;
      for (const at of new Set([0, md.length >> 1, md.length, Math.max(0, md.length - 1)])) {
        try {
          checkRules(md, at);
        } catch (error) {
          throw new Error(
            `CommonMark example ${example.number} (${example.section}) at ${at}: ${String(error)}`,
            { cause: error },
          );
        }
      }
    }
  });
});

describe('defects found in reports as typed', () => {
  it.each([
    'see https\\://x.com',
    'see www\\.x.com today',
    'mail a\\@b.co',
    '## Security impact\n\nhttps\\://x.com and www\\.x.com',
    `[poc](/reports/${REPORT_ID}/files/${FILE_IDS[0]}) https\\://x.com`,
  ])('%j: file links and offsets without throwing', (markdown) => {
    expect(() => checkRules(markdown, 5)).not.toThrow();
  });

  it('an escaped autolink gets the source range it came from', () => {
    const [paragraph] = parseMarkdown('see https\\://x.com now').children;
    const link = (paragraph as { children: Nodes[] }).children[1] as Nodes;
    expect(link.type).toBe('link');
    expect([startOffset(link), endOffset(link)]).toEqual([4, 18]);
  });
});
