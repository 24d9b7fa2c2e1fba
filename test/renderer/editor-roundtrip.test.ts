/**
 * The description editor's Markdown round trip, property-tested in Chromium with the editor set
 * up exactly as the app does (`milkdown-setup.ts`, built by Vite for the browser), over every
 * CommonMark example and over generated report descriptions:
 * - parse → serialize is stable: what the editor writes reads back to the same Markdown;
 * - what the editor shows is what the app's Markdown renderer shows for the Markdown it wrote
 *   (the program's reader sees what the researcher saw);
 * - typed text arrives as typed: URLs, `www.` domains and e-mail addresses are in the Markdown
 *   verbatim, and the Markdown reads back to exactly the text that was typed;
 * - the rules that read a description (template check, file links) never throw on what the
 *   editor wrote.
 */
import fc from 'fast-check';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Nodes } from 'mdast';
import { parseMarkdown, plainText } from '../../src/shared/rules/markdown';
import {
  checkDescription,
  findFileLinks,
  insertFileLinkAt,
  removeFileLinks,
} from '../../src/shared/rules';
import { readFileSync } from 'node:fs';
import { COMMONMARK_EXAMPLES, description, reportWithPayloads } from '../support/generated-texts';
import { openEditorHarness } from './editor-harness/build';
import { COMMONMARK_READ_DIFFERENTLY, sameReading } from './support/same-reading';
import { keptOutside, type KeptRoundTrip } from './support/kept-outside';
import { reportExcerptArb, reportTexts } from '../support/report-texts';

/** Cases per generated property (closing notes count them). */
export const GENERATED_CASES = 300;
const SEED = Number(process.env.PROPERTY_SEED) || 5;

/**
 * CommonMark examples whose round trip changes the text, with why (none now: emphasis nested in
 * its own kind, example 432, is read into the outer one and written back stable).
 */
const KNOWN_UNSTABLE = new Map<number, string>();

/** GFM's own examples of its extensions (test/fixtures/real/SOURCES.md). */
const GFM_EXAMPLES = JSON.parse(
  readFileSync(
    new URL('../fixtures/real/gfm-spec/extension-examples.json', import.meta.url),
    'utf8',
  ),
) as { number: number; section: string; markdown: string }[];

interface RoundTrip {
  first: string;
  second: string;
  shown: string;
  rendered: string;
  error?: string;
}

let browser: Browser;
let page: Page;

async function roundTrips(list: string[]): Promise<RoundTrip[]> {
  return page.evaluate(
    async (l) =>
      (
        globalThis as unknown as {
          editorHarness: { roundTrips(x: string[]): Promise<RoundTrip[]> };
        }
      ).editorHarness.roundTrips(l),
    list,
  );
}

/**
 * Each input is written as given on its first save, and reads the same (and stays) after it.
 */
async function expectWrittenAs(
  cases: [input: string, written: string][],
  { readAlike = false } = {},
): Promise<void> {
  const inputs = cases.map(([input]) => input);
  const results = await roundTrips(inputs);
  expect(results.map((r) => r.first)).toEqual(cases.map(([, written]) => written));
  expect(problems(inputs, results, () => false)).toEqual([]);
  // And a reader of the stored text sees what a reader of the typed text saw.
  if (readAlike) expect(readDifferently(inputs, results)).toEqual([]);
}

async function pastedAll(list: { html?: string; text?: string }[]): Promise<string[]> {
  return page.evaluate(
    async (l) =>
      (
        globalThis as unknown as {
          editorHarness: { pastedAll(x: { html?: string; text?: string }[]): Promise<string[]> };
        }
      ).editorHarness.pastedAll(l),
    list,
  );
}

async function typedAll(list: string[]): Promise<string[]> {
  return page.evaluate(
    async (l) =>
      (
        globalThis as unknown as { editorHarness: { typedAll(x: string[]): Promise<string[]> } }
      ).editorHarness.typedAll(l),
    list,
  );
}

/** Text as a reader sees it, for comparing the editor with the renderer. */
function comparable(text: string): string {
  // Footnote references: the renderer writes "[1]", the editor a superscript "1".
  return text.replace(/\[(\d+)\]/g, '$1').replace(/\s+/g, '');
}

/** Text as the app shows it: `plainText`, with raw HTML as the text it is made of. */
function shownText(node: Nodes): string {
  if (node.type === 'html') return node.value;
  if ('children' in node) return (node.children as Nodes[]).map(shownText).join('');
  return plainText(node);
}

/** The rules that read a description, on Markdown the editor wrote: a throw is a problem. */
function rulesThrow(markdown: string): string | null {
  try {
    checkDescription(markdown);
    removeFileLinks(markdown, findFileLinks(markdown)[0]?.fileId ?? 'none');
    insertFileLinkAt(markdown, markdown.length >> 1, { name: 'a.txt', reportId: 'r', fileId: 'f' });
    return null;
  } catch (error) {
    return String(error);
  }
}

/** The texts the editor stored so that a reader sees something else than what was typed. */
function readDifferently(inputs: string[], results: RoundTrip[]): string[] {
  return results.flatMap((r, i) =>
    r.error || sameReading(inputs[i] ?? '', r.first)
      ? []
      : [`${JSON.stringify(inputs[i])} reads differently as ${JSON.stringify(r.first)}`],
  );
}

function problems(inputs: string[], results: RoundTrip[], skip: (i: number) => boolean): string[] {
  const out: string[] = [];
  results.forEach((r, i) => {
    const thrown = r.error ? null : rulesThrow(r.first);
    if (thrown) out.push(`${JSON.stringify(r.first)}: a rule threw ${thrown}`);
    if (skip(i)) return;
    const input = JSON.stringify(inputs[i]);
    if (r.error) out.push(`${input}: the editor threw ${r.error}`);
    else if (r.first !== r.second)
      out.push(`${input}: unstable\n  ${JSON.stringify(r.first)}\n  ${JSON.stringify(r.second)}`);
    else if (comparable(r.shown) !== comparable(r.rendered))
      out.push(
        `${input}: shown ${JSON.stringify(r.shown)}, rendered ${JSON.stringify(r.rendered)}`,
      );
  });
  return out;
}

beforeAll(async () => {
  let pageErrors: string[];
  ({ browser, page, pageErrors } = await openEditorHarness());
  expect(pageErrors).toEqual([]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('editor round trip (Chromium)', () => {
  it(`is stable and shows what it writes for the ${COMMONMARK_EXAMPLES.length} CommonMark examples`, async () => {
    const inputs = COMMONMARK_EXAMPLES.map((e) => e.markdown);
    const results = await roundTrips(inputs);
    expect(results).toHaveLength(COMMONMARK_EXAMPLES.length);
    const found = problems(inputs, results, (i) =>
      KNOWN_UNSTABLE.has(COMMONMARK_EXAMPLES[i]?.number ?? -1),
    );
    expect(found).toEqual([]);
    // Every other example reads the same as typed (the round-trip benchmark counts 645 of 652).
    const differ = COMMONMARK_EXAMPLES.filter(
      (e, i) => !results[i]?.error && !sameReading(e.markdown, results[i]?.first ?? ''),
    ).map((e) => e.number);
    expect(differ).toEqual([...COMMONMARK_READ_DIFFERENTLY.keys()]);
  }, 120_000);

  it(`is stable and shows what it writes for the ${GFM_EXAMPLES.length} GFM extension examples (tables, task lists, strikethrough, autolinks)`, async () => {
    const inputs = GFM_EXAMPLES.map((e) => e.markdown);
    const results = await roundTrips(inputs);
    expect(problems(inputs, results, () => false)).toEqual([]);
    // Example 627 (found by the 10,000-text run): a "<" the writer escapes right after a literal
    // autolink put a backslash into the link when read back; the link is now written explicitly.
    const at = GFM_EXAMPLES.findIndex((e) => e.number === 627);
    expect(results[at]?.first).toBe('[www.commonmark.org/he](http://www.commonmark.org/he)<lp\n');
  });

  it(`is stable and shows what it writes for ${GENERATED_CASES} report texts with pasted payloads`, async () => {
    // The full run (10,000 and the counts of what is written back byte for byte) is
    // `npx tsx bench/editor-roundtrip.ts`.
    const inputs = fc.sample(reportWithPayloads, { numRuns: GENERATED_CASES, seed: SEED });
    const results = await roundTrips(inputs);
    expect(problems(inputs, results, () => false)).toEqual([]);
    expect(readDifferently(inputs, results)).toEqual([]);
  }, 300_000);

  it(`is stable and shows what it writes for ${GENERATED_CASES} generated descriptions`, async () => {
    const inputs = fc.sample(description, { numRuns: GENERATED_CASES, seed: SEED });
    const results = await roundTrips(inputs);
    expect(problems(inputs, results, () => false)).toEqual([]);
    expect(readDifferently(inputs, results)).toEqual([]);
  }, 120_000);

  it(`writes ${GENERATED_CASES} typed texts as typed: URLs, domains and e-mails verbatim`, async () => {
    const token = fc.constantFrom(
      'https://app.example.com/login?next=//evil.example&x=1',
      'https://x.com/a_b_c/(d)',
      'http://10.0.0.1:8080/admin',
      'www.example.com',
      'www.x.com/path?q=1',
      'security@example.com',
      'a.b+c@sub.example.co',
      'api.example.com',
      'C:\\Users\\me',
      '$HOME/.ssh',
      'x_y_z',
      '100%',
      'a & b',
      '<b>',
      '&amp;',
    );
    const word = fc.constantFrom('Open', 'the', 'login', 'page', 'then', 'see', 'token', 'café');
    const sentence = fc
      .array(fc.oneof(word, token), { minLength: 1, maxLength: 8 })
      .map((parts) => parts.join(' '));
    const inputs = fc.sample(sentence, { numRuns: GENERATED_CASES, seed: SEED });
    const outputs = await typedAll(inputs);
    const wrong: string[] = [];
    outputs.forEach((markdown, i) => {
      const typed = inputs[i] as string;
      const read = shownText(parseMarkdown(markdown) as Nodes);
      if (read.trim() !== typed.trim())
        wrong.push(`${JSON.stringify(typed)} → ${JSON.stringify(markdown)}`);
      for (const url of typed.match(/(?:https?:\/\/|www\.)\S+|\S+@\S+/g) ?? []) {
        if (!markdown.includes(url))
          wrong.push(`${JSON.stringify(url)} not verbatim in ${JSON.stringify(markdown)}`);
      }
    });
    expect(wrong).toEqual([]);
  }, 120_000);

  it('pasted HTML becomes sanitized Markdown: no markup, no script, remote images as links', async () => {
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    const file =
      '/reports/1b4e28ba-2fa1-41d2-883f-0016d3cca427/files/6fa459ea-ee8a-4ca4-894e-db77e160355e';
    const cases: [{ html?: string; text?: string }, string][] = [
      [{ html: '<p>Hello <script>window.__pwned=1</script><b>bold</b></p>' }, 'Hello **bold**\n'],
      [
        { html: '<img src="https://evil.example/x.png" alt="shot" onerror="window.__pwned=2">' },
        '[shot](https://evil.example/x.png)\n',
      ],
      [{ html: '<p><a href="javascript:window.__pwned=3">click</a> here</p>' }, 'click here\n'],
      [{ html: '<iframe src="https://evil.example/"></iframe><p>after</p>' }, 'after\n'],
      [{ html: `<p><img src="${file}" alt="mine"></p>` }, `![mine](${file})\n`],
      [
        { html: '<p style="color:red" onclick="window.__pwned=4">styled <span>text</span></p>' },
        'styled text\n',
      ],
      [
        {
          html: '<table><tr><th>Request</th><th>Result</th></tr><tr><td>a</td><td>b</td></tr></table>',
        },
        '| Request | Result |\n| :--- | :--- |\n| a | b |\n',
      ],
      // Plain text is read as Markdown; raw HTML in it stays visible text, stored as pasted.
      [
        { text: 'see <img src=x onerror=window.__pwned=5> and https://x.com' },
        'see <img src=x onerror=window.__pwned=5> and https://x.com\n',
      ],
      [{ text: '![remote](https://evil.example/y.png)' }, '[remote](https://evil.example/y.png)\n'],
    ];
    const out = await pastedAll(cases.map(([input]) => input));
    expect(out).toEqual(cases.map(([, markdown]) => markdown));
    for (const markdown of out) {
      const tree = parseMarkdown(markdown);
      const html: string[] = [];
      const walk = (n: Nodes): void => {
        if (n.type === 'html') html.push(n.value);
        if ('children' in n) for (const c of n.children as Nodes[]) walk(c);
      };
      walk(tree);
      // Only the pasted text's tag, which the app shows as the text it is (never markup).
      expect(html.filter((h) => h !== '<img src=x onerror=window.__pwned=5>')).toEqual([]);
    }
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(requests.filter((r) => r.includes('evil.example'))).toEqual([]);
  });

  it('a URL ending a table cell is written the same way by the text and the link it becomes', async () => {
    // Found by other seeds of the generated descriptions: the cell's end was taken for "|" by the
    // text handler and for an unknown character by the link handler, so the first write and the
    // second differed ("café<https://…>" then "caféhttps://…"; "\\<http://…>" then broken).
    const table = (cell: string) => `| Request | Result |\n| --- | --- |\n| ${cell} | ok |`;
    const inputs = [
      table('admin caféhttps\\://x.comlogin2.'),
      table('a.b+c@sub.example.co   \\http://x.com'),
      table('see https://x.com/a_b_c/(d)'),
      table('www.x.com/path.'),
    ];
    const results = await roundTrips(inputs);
    expect(problems(inputs, results, () => false)).toEqual([]);
    expect(results.map((r) => r.first.split('\n')[2])).toEqual([
      // (Escaped in the Markdown, the address stays unlinked: unlinked-urls.ts.)
      '| admin caféhttps\\://x.comlogin2. | ok |',
      '| a.b+c@sub.example.co   \\http://x.com | ok |',
      '| see https://x.com/a_b_c/(d) | ok |',
      '| www.x.com/path. | ok |',
    ]);
  });

  it('an e-mail address is never run on by the text after it: the link keeps its address', async () => {
    // Found by seed 50 of the generated descriptions: the link "security@example.comwww" then the
    // text ".x.com" was written bare, and read back as the one address
    // "security@example.comwww.x.com" (the link's target changed); one character (".") was all
    // the link handler looked at.
    const inputs = [
      '> security@example.comwww\\.x.com  \n> redirect',
      'Mail security@example.com\\-team.',
      'Write to security@example.com, or a@b.co. Thanks.',
    ];
    const results = await roundTrips(inputs);
    expect(problems(inputs, results, () => false)).toEqual([]);
    const targets = (markdown: string): string[] => {
      const urls: string[] = [];
      const walk = (node: Nodes): void => {
        if (node.type === 'link') urls.push(node.url);
        if ('children' in node) for (const child of node.children) walk(child as Nodes);
      };
      walk(parseMarkdown(markdown) as Nodes);
      return urls;
    };
    results.forEach((result, i) => {
      const typed = targets(inputs[i] as string);
      expect(typed.length, inputs[i]).toBeGreaterThan(0);
      expect(targets(result.first), inputs[i]).toEqual(typed);
    });
    expect(results[0]?.first).toBe('> <security@example.comwww>.x.com\\\n> redirect\n');
    // Where nothing can run on, the address stays as typed.
    expect(results[2]?.first).toBe('Write to security@example.com, or a@b.co. Thanks.\n');
  });

  it('a link that opens an emphasis is written as the emphasis can open before it', async () => {
    // Found by seed 50: the writer peeks at the link's first character (with nothing before it)
    // to choose the emphasis markers, then wrote the link after the marker explicitly ("<"), so
    // `a*<b@x.co>, a*` lost its emphasis when read back. GFM reads a literal autolink right after
    // a marker: both now write it bare.
    const inputs = [
      'a*bsecurity@example.com, a*b',
      'a*security@example.com*b',
      'see **security@example.com** now',
      'x *www.example.com and more* y',
    ];
    const results = await roundTrips(inputs);
    expect(problems(inputs, results, () => false)).toEqual([]);
    expect(results.map((r) => r.first)).toEqual(inputs.map((input) => `${input}\n`));
  });

  it('emphasis nested in emphasis of its own kind keeps its reach (the 10,000-text run, seed 22)', async () => {
    // ProseMirror holds one mark of a kind: closing the inner one took the outer one off the rest
    // of its text ("c" was no longer emphasized). The inner one is read into the outer one.
    const cases: [string, string][] = [
      ['*a *b* c*', '*a b c*\n'],
      ['a*b _it_ a*b', 'a*b it a*b\n'],
      ['_foo _bar_ baz_', '_foo bar baz_\n'],
      ['**foo **bar****', '**foo bar**\n'],
      ['~~a ~~b~~ c~~', '~~a b c~~\n'],
      ['*foo **bar *baz* bim** bop*', '*foo **bar baz bim** bop*\n'],
      // Mixed kinds were and stay as typed.
      ['*a **b** c*', '*a **b** c*\n'],
      ['***x***', '***x***\n'],
    ];
    const results = await roundTrips(cases.map(([input]) => input));
    expect(results.map((r) => r.first)).toEqual(cases.map(([, written]) => written));
    expect(results.every((r) => r.first === r.second)).toBe(true);
  });

  it('an address the Markdown kept from being a link stays unlinked; a typed one is written bare', async () => {
    // A defanged address (`https\\://evil.example`) opened from the service must not become a
    // live link on the next save; an address a reader links anyway is written bare, as typed.
    const cases: [string, string][] = [
      ['日本語https\\://evil.example', '日本語https\\://evil.example\n'],
      ['x www\\.evil.example_', 'x www\\.evil.example_\n'],
      ['#1https\\://x.com then', '#1https\\://x.com then\n'],
      ['see https\\://x.com', 'see https://x.com\n'],
      ['see https://x.com and a@b.co', 'see https://x.com and a@b.co\n'],
      // No address at all (a domain may not end in "_"): no escape makes one of it.
      ['a.b+c@sub.example.co_', 'a.b+c@sub.example.co_\n'],
      ['a\\@b.co_it_', 'a@b.co_it_\n'],
    ];
    await expectWrittenAs(cases);
  });

  it('two links to the same address side by side stay two links (a file linked twice)', async () => {
    const file =
      '/reports/1b4e28ba-2fa1-41d2-883f-0016d3cca427/files/6fa459ea-ee8a-4ca4-894e-db77e160355e';
    const cases: [string, string][] = [
      [`[poc.txt](${file})[poc.txt](${file})`, `[poc.txt](${file})[poc.txt](${file})\n`],
      ['[a](/u)[b](/u)[c](/u)', '[a](/u)[b](/u)[c](/u)\n'],
      ['[a](/u "t")[b](/u "t") x', '[a](/u "t")[b](/u "t") x\n'],
      ['<https://example.com><https://example.com>', '<https://example.com>https://example.com\n'],
    ];
    await expectWrittenAs(cases);
  });

  it('the six texts of 10,000 (seed 22) that changed on a second pass are stable', async () => {
    // `]` before `[` ends a literal autolink (`https://x.com[shot][]` links `https://x.com[shot`);
    // a closing `*` after a URL is trailing punctuation for the link as for the text; a hard
    // break after a link is two spaces, not a "\\" the URL would take in; a pipe in a table cell
    // (escaped, which the reader keeps in the address, or not) is never put inside `<…>`.
    const cases: [string, string][] = [
      [
        '- [x] 😀<https://example.com> [^1], https\\://x.com[shot][]"quoted", 日本語\n',
        '* [x] 😀https://example.com [^1], <https://x.com[shot][]"quoted>", 日本語\n',
      ],
      [
        '- [x] https\\://x.com[shot][]a*b 127.0.0.1:8080\n',
        '* [x] <https://x.com[shot][]a*b> 127.0.0.1:8080\n',
      ],
      [
        'a*b the <https://example.com> _it_ ![shot][1], a\\@b.co a*b\n',
        // (The emphasis from the first `*` to the last, with `_it_` in it, keeps its reach.)
        'a*b the https://example.com it ![shot][1], a@b.co a*b\n',
      ],
      [
        '> *日本語caféhttps\\://x.com  \n> www.x.com/path\n',
        // (An address the Markdown kept unlinked stays so.)
        '> *日本語caféhttps\\://x.com\\\n> www.x.com/path\n',
      ],
      [
        '| Request | Result |\n| --- | --- |\n| http://x.com\\| 2. | ok |\n',
        '| Request | Result |\n| --- | --- |\n| http://x.com\\| 2. | ok |\n',
      ],
      [
        '| Request | Result |\n| --- | --- |\n| https\\://x.com\\| | ok |\n',
        '| Request | Result |\n| --- | --- |\n| [https://x.com\\|](https://x.com\\|) | ok |\n',
      ],
    ];
    const inputs = cases.map(([input]) => input);
    const results = await roundTrips(inputs);
    expect(problems(inputs, results, () => false)).toEqual([]);
    expect(results.map((r) => r.first)).toEqual(cases.map(([, first]) => first));
  });

  it('an address ending an emphasis is not run on into the text after it (10,000 texts, seed 22)', async () => {
    // `www\.x.coma` is linked by a reader all the same (the escape is gone from the text it
    // links); the writer was told only the closing `*` follows and wrote it bare, which a reader
    // ran on into `*b`: the emphasis was gone. Written explicitly, the `)` before the marker
    // keeps it from closing before a letter: that letter is written as a character reference.
    const cases: [string, string][] = [
      ['a*b & www\\.x.coma*b', 'a*b & [www.x.coma](http://www.x.coma)*&#x62;\n'],
      ['**a www\\.x.coma**b', '**a [www.x.coma](http://www.x.coma)**&#x62;\n'],
      // Whitespace or punctuation after the marker: written bare, as typed.
      ['*see https://x.com*.', '*see https://x.com*.\n'],
      ['*a www\\.x.coma* b', '*a www.x.coma* b\n'],
    ];
    await expectWrittenAs(cases, { readAlike: true });
  });

  it('a "_" before a link written in brackets stays text, not the end of the emphasis (10,000 texts, seed 22)', async () => {
    // The writer peeks at a link's first character to escape the text before it: told "w" (the
    // bare form), it left `_it_` unescaped, then wrote `[www.example.com](…)` after the "_",
    // which a reader took for the emphasis' end.
    const cases: [string, string][] = [
      ['_it_www.example.com 2._', '_it\\_[www.example.com](http://www.example.com) 2._\n'],
      [
        '3. 😀 _it_www.example.com   \\*not\\* #1 2._ api.example.com',
        '3. 😀 _it\\_[www.example.com](http://www.example.com)   *not\\* #1 2._ api.example.com\n',
      ],
    ];
    await expectWrittenAs(cases, { readAlike: true });
  });

  it('a footnote with an HTML line under its text is kept whole (2,000 texts, seed 1)', async () => {
    // The reader makes the line an HTML block in the footnote, which the editor could not hold
    // there: the whole footnote was dropped from the saved description.
    const cases: [string, string][] = [
      ['[^1]: A footnote.\n<br />\n', '[^1]: A footnote.\n\n    <br />\n'],
      ['x[^1]\n\n[^1]: A footnote.\n<br />\n', 'x[^1]\n\n[^1]: A footnote.\n\n    <br />\n'],
    ];
    await expectWrittenAs(cases, { readAlike: true });
  });

  it('a list right after a list of the other kind keeps both tight, in a quote too (2,000 texts, seeds 1 and 2)', async () => {
    // Parted by a blank line, which in a quote a reader takes as making the first list loose.
    const cases: [string, string][] = [
      ['> 1. a\n> * b', '> 1. a\n> * b\n'],
      ['> - a\n> 1. b', '> * a\n> 1. b\n'],
      ['1. a\n\n* b', '1. a\n* b\n'],
      [
        '> 2. $HOME  \n> café  \n> token  \n> * [shot][], _ 日本語',
        '> 2. $HOME\\\n>    café\\\n>    token\n> * [shot][], _ 日本語\n',
      ],
      // A loose list stays parted from the next.
      ['* a\n\n  b\n1. c', '* a\n\n  b\n\n1. c\n'],
      // So does one whose first item is empty (it cannot interrupt a paragraph); the editor's
      // empty items have no children at all (the 2,000 texts of seeds 1 and 2: a throw).
      ['1. a\n\n*  \nb', '1. a\n\n*\n\nb\n'],
      ['* a\n\n1.\n\nb', '* a\n\n1.\n\nb\n'],
    ];
    await expectWrittenAs(cases, { readAlike: true });
  });

  it("an HTML line right under a list item's text stays in the item, and the list stays tight (10,000 texts, seed 22)", async () => {
    // micromark reads a tag that cannot interrupt a paragraph (`<br />`, `<img …>`), unindented
    // under a list item's text, as an HTML block inside the item (CommonMark: a lazy line of the
    // item's text; both show it alike). The editor wrote it after a blank line: the list became
    // loose and the tag a block of its own (about 15 of the 20 that read differently).
    const cases: [string, string][] = [
      ['- a\n<br />\n', '* a\n  <br />\n'],
      ['- [ ] a\n<br />\n', '* [ ] a\n  <br />\n'],
      // Trailing spaces end the item's text, not a hard break: the next save writes the same.
      ['- a\n<br />  \n', '* a\n  <br />\n'],
      // In a loose list the line stays a block of its own, as it is read there.
      ['- a\n\n- b\n<br />\n', '* a\n\n* b\n\n  <br />\n'],
      ['- a  \n<img src=x onerror=alert(1)>\n\nb\n', '* a\n  <img src=x onerror=alert(1)>\n\nb\n'],
      [
        '* 127.0.0.1:8080 日本語\n* C#   the admin, login\n<br />\n## Actual behavior\n',
        '* 127.0.0.1:8080 日本語\n* C#   the admin, login\n  <br />\n\n## Actual behavior\n',
      ],
      [
        '- <me@example.com>\n  - token. 😀 &amp;\nredirect. security@example.com  \n<img src=x onerror=alert(1)>\n',
        '* me@example.com\n  * token. 😀 &\n    redirect. security@example.com\n    <img src=x onerror=alert(1)>\n',
      ],
    ];
    await expectWrittenAs(cases, { readAlike: true });
  });

  it('link reference definitions are kept as typed, and the text after one reads as typed (10,000 texts, seed 22)', async () => {
    // Milkdown resolved the references and dropped the definitions: the line was lost, and a tag
    // on the next line then began an HTML block that took the paragraph below it as raw HTML.
    const file =
      '/reports/1b4e28ba-2fa1-41d2-883f-0016d3cca427/files/6fa459ea-ee8a-4ca4-894e-db77e160355e';
    const cases: [string, string][] = [
      [
        `[1]: ${file}\n<img src=x onerror=alert(1)>\nadmin \`<script>alert(1)</script>\` café\n`,
        `[1]: ${file}\n<img src=x onerror=alert(1)>\nadmin \`<script>alert(1)</script>\` café\n`,
      ],
      ['[a]: https://x.com\n\ntext [a]\n', '[a]: https://x.com\n\ntext [a](https://x.com)\n'],
      [
        '> [a]: https://x.com "T"\n> b [a]\n',
        '> [a]: https://x.com "T"\n> b [a](https://x.com "T")\n',
      ],
      ['- a\n- b\n\n  [ref]: /url\n- d\n', '* a\n* b\n\n  [ref]: /url\n* d\n'],
      // A setext heading's text may start right under the definition.
      [
        '[shot]: https://example.com/shot.png\n<br />\nSetup\n===\n',
        '[shot]: https://example.com/shot.png\n<br />\nSetup\n=====\n',
      ],
      // A line that could be read as the definition's title is kept apart from it.
      ['[1]: /x\n"q" and\n', '[1]: /x\n\n"q" and\n'],
    ];
    await expectWrittenAs(cases, { readAlike: true });
  });

  it('a reference-style image without a title loads, and the whole description survives', async () => {
    const inputs = [
      '## Steps to reproduce\n\n![shot][1]\n\n## Security impact\n\nAccount takeover.\n\n[1]: https://example.com/shot.png\n',
      '## Steps to reproduce\n\n![shot][]\n\n## Security impact\n\nAccount takeover.\n\n[shot]: https://example.com/shot.png\n',
    ];
    for (const result of await roundTrips(inputs)) {
      expect(result.error).toBeUndefined();
      expect(result.first).toContain('![shot](https://example.com/shot.png)');
      expect(result.first).toContain('## Security impact\n\nAccount takeover.');
    }
  });
});

describe('keys typed ahead of the browser telling the editor its selection moved', () => {
  // Chromium queues `selectionchange` behind input: keys typed while the renderer is busy (a save)
  // reached the editor before it knew the caret had moved. Found by the toolbar's browser test.
  const press = (
    markdown: string,
    state: 'range' | 'caret',
    browser: 'collapse' | 'select',
    key: string,
    init: { ctrlKey?: boolean } = {},
  ): Promise<string> =>
    page.evaluate(
      async ([m, s, b, k, i]) =>
        (
          globalThis as unknown as {
            editorHarness: {
              keyAfterBrowserSelection(
                m: string,
                s: string,
                b: string,
                k: string,
                i: object,
              ): Promise<string>;
            };
          }
        ).editorHarness.keyAfterBrowserSelection(m, s, b, k, i),
      [markdown, state, browser, key, init] as const,
    );

  it('Enter after End keeps the formatted words the browser no longer selects', async () => {
    // Words selected and made bold; End collapsed the browser's selection; Enter.
    expect(await press('**bold words**\n', 'range', 'collapse', 'Enter')).toBe('**bold words**\n');
  });

  it('a format after Shift+Home goes on the words the browser selected', async () => {
    expect(await press('italic words\n', 'caret', 'select', 'i', { ctrlKey: true })).toBe(
      '*italic words*\n',
    );
  });
});

describe('what the researcher types is saved as typed', () => {
  it('payloads and redaction marks keep no added backslash where Markdown reads them the same', async () => {
    const verbatim = [
      'Key: [REDACTED:aws-access-key] in the response',
      'Payload <img src=x onerror=alert(1)> in the name field',
      'XSS: <script>alert(document.domain)</script>',
      "Login with ' OR 1=1-- as the user",
      'Template {{7*7}} renders 49; ${7*7} too',
      'JSON {"id": [1, 2], "admin": true}',
      'Shell: curl -s https://x.com/a?b=1 | sh',
      'Path C:\\Users\\me\\AppData',
    ];
    const saved = await typedAll(verbatim);
    expect(saved).toEqual(verbatim.map((text) => `${text}\n`));
    // Where the backslash changes the reading, it stays: the typed text reads back as typed.
    // (`<script>` first on a line opens an HTML block, which would take the lines below.)
    const needed = ['[link](https://x.com)', '&amp; is an entity', '<script>alert(1)</script>'];
    const kept = await typedAll(needed);
    kept.forEach((markdown, i) => {
      expect(markdown, needed[i]).not.toBe(`${needed[i]}\n`);
      expect(shownText(parseMarkdown(markdown) as Nodes)).toBe(needed[i]);
    });
  });

  it('lists nested with Tab are written tight, as typed (a tab is the Tab key)', async () => {
    const cases: [string, string][] = [
      ['- first\n\tsecond\nthird', '* first\n  * second\n  * third\n'],
      ['- a\n\tb\n\tc\n\n\nd', '* a\n  * b\n    * c\n* d\n'],
      ['1. one\n\ttwo', '1. one\n   1. two\n'],
      // Into the nested list the item before already holds.
      ['- a\n\tb\n\n\tc', '* a\n  * b\n  * c\n'],
    ];
    expect(await typedAll(cases.map(([typed]) => typed))).toEqual(cases.map(([, md]) => md));
  });

  it('a table typed row by row becomes a table and is saved as typed', async () => {
    const table = '| id | name |\n| --- | --- |\n| 1 | admin |\n| 2 | `guest` |';
    // The caret still in the last row, then after Enter and a paragraph below.
    const [typing, after] = await typedAll([table, `${table}\nDone.`]);
    expect(typing).toBe(`${table}\n`);
    expect(after).toBe(`${table}\n\nDone.\n`);
    const results = await roundTrips([`${table}\n`]);
    expect(results[0]?.first).toBe(`${table}\n`);
    expect(parseMarkdown(after ?? '').children.map((c) => c.type)).toEqual(['table', 'paragraph']);
  });
});

describe('a block the researcher did not touch keeps its bytes', () => {
  async function keptRoundTrips(list: string[], seed: number): Promise<KeptRoundTrip[]> {
    const out: KeptRoundTrip[] = [];
    // In batches: a long corpus text takes a while to open and write.
    for (let at = 0; at < list.length; at += 20) {
      out.push(
        ...(await page.evaluate(
          async ({ l, s }) =>
            (
              globalThis as unknown as {
                editorHarness: {
                  keptRoundTrips(x: string[], seed: number): Promise<KeptRoundTrip[]>;
                };
              }
            ).editorHarness.keptRoundTrips(l, s),
          { l: list.slice(at, at + 20), s: seed + at },
        )),
      );
    }
    return out;
  }

  /** What researchers paste from their notes, each form the writer would restyle. */
  const PASTED = [
    '- first bullet\n- second bullet\n',
    '1. open the page\n1. log in\n1. send the request\n',
    'Steps to reproduce\n==================\n\nImpact\n------\n',
    '~~~http\nGET /api/v2/users/4411 HTTP/1.1\nHost: app.globex.example\n~~~\n',
    'Seen on www.globex.example and https://app.globex.example/login today.\n',
    'First line with two trailing spaces  \nsecond line.\n',
    '- outer item\n    - nested item, four spaces\n        - deeper\n',
    "```\n        ___\n       __H__\n ___ ___[']_____ ___ ___  {1.7.2#stable}\n|_ -| . [)]     | .'| . |\n|___|_  [(]_|_|_|__,|  _|\n      |_|V...       |_|   https://sqlmap.org\n```\n",
    'Both *.globex.example and *.globex.test are affected; C:\\Users\\me\\AppData stays.\n',
    '* star bullet\n\n+ plus bullet\n',
    'Text with a reference [advisory][1].\n\n[1]: https://globex.example/advisory "Advisory"\n',
  ];

  it('pasted Markdown comes back byte for byte when untouched: bullets, numbering, setext headings, ~~~ fences, bare URLs, trailing spaces, nesting, a tool banner', async () => {
    const results = await keptRoundTrips(PASTED, 1);
    expect(results.map((r) => r.error ?? r.saved)).toEqual(PASTED);
  }, 120_000);

  it('one word changed changes its block only: every other block keeps its bytes', async () => {
    const text = PASTED.join('\n');
    for (let pick = 0; pick < 12; pick++) {
      const [r] = await keptRoundTrips([text], pick * 3);
      expect(r?.error).toBeUndefined();
      expect(r?.edited, `word ${pick}`).not.toBeNull();
      expect(keptOutside(text, r?.edited ?? '', r?.span ?? null), `"${r?.word}" changed`).toBe(
        true,
      );
      expect(r?.edited).not.toBe(text);
    }
  }, 120_000);

  it('the real report corpus: every text reads the same after a save; ≥ 95% keep every other block byte for byte after a one-word change', async () => {
    const texts = reportTexts();
    console.log(`kept blocks: real report corpus, seed ${SEED}`);
    const results = await keptRoundTrips(
      texts.map((t) => t.text),
      SEED,
    );
    const readAlike = results.filter(
      (r, i) => !r.error && sameReading(r.saved, texts[i]?.text ?? ''),
    ).length;
    const identical = results.filter((r, i) => r.saved === texts[i]?.text).length;
    const edited = results.filter((r) => r.edited !== null);
    const keptAround = results.filter(
      (r, i) => r.edited !== null && keptOutside(texts[i]?.text ?? '', r.edited, r.span),
    ).length;
    const thrown = results.flatMap((r) => {
      const problem = rulesThrow(r.saved) ?? (r.edited === null ? null : rulesThrow(r.edited));
      return problem ? [problem] : [];
    });
    console.log(
      `read the same after a save ${readAlike}/${texts.length}, byte for byte ${identical}/${texts.length}, ` +
        `byte for byte outside the changed block ${keptAround}/${edited.length}`,
    );
    expect(thrown).toEqual([]);
    expect(readAlike).toBe(texts.length);
    expect(keptAround / edited.length).toBeGreaterThanOrEqual(0.95);
  }, 600_000);

  it('the rules that read a description never throw on what the editor saves from real report excerpts (property)', async () => {
    const excerpts = fc.sample(reportExcerptArb(1500), { numRuns: 60, seed: SEED });
    console.log(`kept blocks: 60 real report excerpts, seed ${SEED}`);
    const results = await keptRoundTrips(excerpts, SEED);
    const thrown = results.flatMap((r, i) => {
      if (r.error) return [`${JSON.stringify(excerpts[i])}: the editor threw ${r.error}`];
      const problem = rulesThrow(r.saved) ?? (r.edited === null ? null : rulesThrow(r.edited));
      return problem ? [`${JSON.stringify(excerpts[i])}: ${problem}`] : [];
    });
    expect(thrown).toEqual([]);
  }, 300_000);
});
