/**
 * Real report texts (test/fixtures/real/reports, sources in test/fixtures/real/SOURCES.md):
 * public CVE write-ups and testing guides with the HTTP requests, bearer tokens, JSON bodies,
 * cookies, payloads, tables, Windows paths and tool output that researchers paste into reports.
 * Every test that takes text draws from here, so a rule that breaks on what a real report holds
 * fails a test.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';

// `import.meta.url`, not `__dirname`: the benches load this module as an ES module (tsx).
export const REPORTS_DIR = fileURLToPath(new URL('../fixtures/real/reports', import.meta.url));

export interface ReportText {
  /** The fixture's file name, e.g. `vulhub--influxdb-CVE-2019-20933.md`. */
  name: string;
  text: string;
}

let cache: readonly ReportText[] | undefined;

/** Every text of the corpus, sorted by name (a stable order, so a seed replays the same draw). */
export function reportTexts(): ReportText[] {
  cache ??= readdirSync(REPORTS_DIR)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => ({ name, text: readFileSync(join(REPORTS_DIR, name), 'utf8') }));
  return [...cache];
}

/** One text by its file name. */
export function reportText(name: string): string {
  const found = reportTexts().find((r) => r.name === name);
  if (!found) throw new Error(`no report text named ${name} in ${REPORTS_DIR}`);
  return found.text;
}

/** A whole corpus text; fast-check's seed (printed on failure) picks it. */
export function reportTextArb(
  filter: (text: string) => boolean = () => true,
): fc.Arbitrary<ReportText> {
  const texts = reportTexts().filter((r) => filter(r.text));
  if (texts.length === 0) throw new Error('no report text passes the filter');
  return fc.constantFrom(...texts);
}

/**
 * A run of whole blocks (split at blank lines outside code fences) from one corpus text, at most
 * `maxChars` long where the blocks allow (a first block longer than that is kept whole): report-
 * shaped text small enough for a chat reply or an edit made by hand.
 */
export function reportExcerptArb(maxChars = 2000, maxBlocks = 6): fc.Arbitrary<string> {
  return reportTextArb()
    .chain(({ text }) => {
      const blocks = markdownBlocks(text);
      return fc
        .integer({ min: 0, max: blocks.length - 1 })
        .chain((start) =>
          fc
            .integer({ min: 1, max: Math.min(maxBlocks, blocks.length - start) })
            .map((count) => blocks.slice(start, start + count)),
        );
    })
    .map((blocks) => {
      let out = blocks[0] ?? '';
      for (const block of blocks.slice(1)) {
        if (out.length + block.length + 2 > maxChars) break;
        out += `\n\n${block}`;
      }
      return out;
    });
}

/** Blocks of a Markdown text: separated by blank lines, a fenced code block kept whole. */
export function markdownBlocks(text: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && fence === null) fence = marker;
    else if (marker && fence !== null && marker.startsWith(fence) && line.trim() === marker) {
      fence = null;
    }
    if (line.trim() === '' && fence === null) {
      if (current.length > 0) blocks.push(current.join('\n'));
      current = [];
    } else current.push(line);
  }
  if (current.length > 0) blocks.push(current.join('\n'));
  return blocks;
}
