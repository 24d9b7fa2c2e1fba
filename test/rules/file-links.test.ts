import { describe, expect, it } from 'vitest';
import {
  escapeMarkdownText,
  fileLinkTarget,
  findFileLinks,
  insertFileLink,
  insertFileLinkAt,
  parseFileLinkTarget,
  removeFileLinks,
} from '../../src/shared/rules/index';

const R = '1b4e28ba-2fa1-41d2-883f-0016d3cca427';
const F = '6fa459ea-ee8a-4ca4-894e-db77e160355e';
const G = '16fd2706-8baf-433b-82eb-8c7fada847da';
const t = (file = F, report = R) => `/reports/${report}/files/${file}`;

describe('fileLinkTarget / parseFileLinkTarget', () => {
  it('builds and parses the path form', () => {
    expect(fileLinkTarget(R, F)).toBe(t());
    expect(parseFileLinkTarget(t())).toEqual({ reportId: R, fileId: F });
  });
  it.each([
    [`${t()}?download=1`, true],
    [`${t()}#top`, true],
    [`${t()}/`, false],
    [`${t()}/x`, false],
    [`https://example.com${t()}`, false],
    [t().slice(1), false],
    ['/reports//files/x', false],
    ['/reports/r/files/', false],
    ['/reports/r/file/x', false],
    ['/api/reports/r/files/x', false],
    ['', false],
  ])('%s is a file link: %s', (url, yes) => {
    expect(parseFileLinkTarget(url) !== null).toBe(yes);
  });
  it('percent-decodes segments', () => {
    expect(parseFileLinkTarget('/reports/a%2Db/files/c%20d')).toEqual({
      reportId: 'a-b',
      fileId: 'c d',
    });
    expect(parseFileLinkTarget('/reports/a/files/%zz')).toEqual({ reportId: 'a', fileId: '%zz' });
  });
});

describe('findFileLinks', () => {
  it('finds an inline link with offsets and text', () => {
    const md = `See [the *log*](${t()}) here.`;
    const [link, ...rest] = findFileLinks(md);
    expect(rest).toEqual([]);
    expect(link).toMatchObject({ reportId: R, fileId: F, text: 'the *log*', image: false });
    expect(md.slice(link?.start, link?.end)).toBe(`[the *log*](${t()})`);
  });

  it('finds images, definitions and references', () => {
    const md = `![shot](${t()} "title")\n\n[ref][x] and [x] and ![alt][x]\n\n[x]: <${t(G)}>\n`;
    const links = findFileLinks(md);
    expect(links.map((l) => [l.kind, l.fileId, l.image, l.text])).toEqual([
      ['image', F, true, 'shot'],
      ['linkReference', G, false, 'ref'],
      ['linkReference', G, false, 'x'],
      ['imageReference', G, true, 'alt'],
      ['definition', G, false, 'x'],
    ]);
    for (const l of links) expect(md.slice(l.start, l.end)).not.toContain('\n\n');
  });

  it('ignores absolute URLs, autolinks, HTML, code and undefined references', () => {
    const md = [
      `[abs](https://host${t()})`,
      `<https://host${t()}>`,
      `www.host.com${t()}`,
      `<a href="${t()}">html</a>`,
      `\`[code](${t()})\``,
      '```',
      `[fenced](${t()})`,
      '```',
      `[nothing][missing]`,
      `plain ${t()}`,
    ].join('\n\n');
    expect(findFileLinks(md)).toEqual([]);
  });

  it('finds links in lists, tables, quotes and footnotes', () => {
    const md = `- [a](${t()})\n\n> [b](${t()})\n\n| c |\n|---|\n| [c](${t()}) |\n\nx[^1]\n\n[^1]: [d](${t()})\n`;
    expect(findFileLinks(md).map((l) => l.text)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('uses UTF-16 offsets', () => {
    const md = `😀 é [a](${t()})`;
    const [link] = findFileLinks(md);
    expect(link?.start).toBe(md.indexOf('['));
    expect(link?.end).toBe(md.length);
  });

  it('resolves references to the first definition only', () => {
    const md = `[x]\n\n[x]: ${t(F)}\n[x]: ${t(G)}\n`;
    const links = findFileLinks(md);
    expect(links.filter((l) => l.kind === 'linkReference').map((l) => l.fileId)).toEqual([F]);
    expect(links.filter((l) => l.kind === 'definition').map((l) => l.fileId)).toEqual([F, G]);
  });

  it('finds links to another report (for the server to refuse)', () => {
    expect(findFileLinks(`[a](${t(F, 'other')})`)[0]).toMatchObject({ reportId: 'other' });
  });
});

describe('removeFileLinks', () => {
  it('turns a link into its text and leaves the rest byte-identical', () => {
    const md = `Intro  \ttext\r\n\r\nSee [the **log**](${t()}) and [other](${t(G)}).\r\n`;
    expect(removeFileLinks(md, F)).toBe(
      `Intro  \ttext\r\n\r\nSee the **log** and [other](${t(G)}).\r\n`,
    );
  });

  it('returns the same string when nothing links to the file', () => {
    const md = `[other](${t(G)})`;
    expect(removeFileLinks(md, F)).toBe(md);
  });

  it('removes an inline image, and its line when it stood alone', () => {
    expect(removeFileLinks(`a ![s](${t()}) b`, F)).toBe('a  b');
    expect(removeFileLinks(`a\n\n![s](${t()})\n\nb\n`, F)).toBe('a\n\n\nb\n');
    expect(removeFileLinks(`a\n\n![s](${t()})`, F)).toBe('a\n\n');
  });

  it('removes definitions and unlinks their references', () => {
    const md = `Read [the log][x], [x] and [X][].\n![alt][x]\n\n[x]: ${t()} "Log"\n\nEnd\n`;
    expect(removeFileLinks(md, F)).toBe('Read the log, x and X.\n\n\nEnd\n');
  });

  it('removes a multi-line definition', () => {
    const md = `a\n\n[x]:\n  ${t()}\n  "title"\nb\n`;
    expect(removeFileLinks(md, F)).toBe('a\n\nb\n');
  });

  it('keeps the list marker when an image was the whole item', () => {
    expect(removeFileLinks(`- ![s](${t()})\n- b\n`, F)).toBe('- \n- b\n');
  });

  it('handles an image of the file inside a link to the file', () => {
    expect(removeFileLinks(`x [![s](${t()})](${t()}) y`, F)).toBe('x  y');
    expect(removeFileLinks(`x [see ![s](${t()})](${t(G)}) y`, F)).toBe(`x [see ](${t(G)}) y`);
  });

  it('handles a link with empty text', () => {
    expect(removeFileLinks(`a [](${t()}) b`, F)).toBe('a  b');
  });

  it('removes every link to the file whatever the report id, and nothing else', () => {
    const md = `[a](${t()}) [b](${t(F, 'x')}) [c](${t(G)}) [d](https://h${t()})`;
    expect(removeFileLinks(md, F)).toBe(`a b [c](${t(G)}) [d](https://h${t()})`);
  });

  it('leaves nothing that findFileLinks finds for the file', () => {
    const md = `# T\n\n[a](${t()})\n\n- ![b](${t()})\n\n> [c][r]\n\n[r]: ${t()}\n`;
    expect(findFileLinks(removeFileLinks(md, F))).toEqual([]);
  });
});

describe('insertFileLink', () => {
  const opts = { name: 'log.txt', reportId: R, fileId: F };

  it('inserts a link at the offset, never glued to the words around it', () => {
    expect(insertFileLink('ab', 1, opts)).toBe(`a [log.txt](${t()}) b`);
    expect(insertFileLink('a b', 1, opts)).toBe(`a [log.txt](${t()}) b`);
    expect(insertFileLink('a b', 2, opts)).toBe(`a [log.txt](${t()}) b`);
  });

  it('several files dropped at one point: each after the last, separated', () => {
    const first = insertFileLinkAt('Login flow.', 11, { ...opts, name: 'login.request.txt' });
    const second = insertFileLinkAt(first.markdown, first.end, {
      ...opts,
      name: 'har-capture.har',
      fileId: G,
    });
    expect(second.markdown).toBe(
      `Login flow. [login.request.txt](${t()}) [har-capture.har](${t(G)})`,
    );
  });

  it('never inside a heading: a paragraph of its own below it', () => {
    for (const at of [3, 18, 19]) {
      expect(insertFileLink('## Security impact\n', at, opts)).toBe(
        `## Security impact\n\n[log.txt](${t()})\n`,
      );
    }
    expect(insertFileLink('## A\n\n## B\n', 2, opts)).toBe(`## A\n\n[log.txt](${t()})\n\n## B\n`);
  });

  it('never inside an inline construct, a code block or block syntax', () => {
    expect(insertFileLink('see `a b` now', 6, opts)).toBe(`see \`a b\` [log.txt](${t()}) now`);
    expect(insertFileLink('see https\\://x.com now', 9, opts)).toBe(
      `see https\\://x.com [log.txt](${t()}) now`,
    );
    expect(insertFileLink('```\nx\n```\n', 5, opts)).toBe(
      `\`\`\`\nx\n\`\`\`\n\n[log.txt](${t()})\n`,
    );
    expect(insertFileLink('- a\n- b\n', 1, opts)).toBe(`- a\n- b\n\n[log.txt](${t()})\n`);
  });

  it('never inside a table: below it, wherever in the table the caret was', () => {
    const table = '## Steps\n\n| id | role |\n| --- | --- |\n| 1 | admin |\n';
    // The end of the last cell (a description that ends with a table), a cell, the delimiter row.
    for (const at of [table.length - 3, table.length - 1, table.length, 20, 28]) {
      expect(insertFileLink(table, at, opts)).toBe(`${table}\n[log.txt](${t()})\n`);
    }
    const more = `${table}\nAfter.\n`;
    expect(insertFileLink(more, table.length - 3, opts)).toBe(
      `${table}\n[log.txt](${t()})\n\nAfter.\n`,
    );
  });

  it('on an empty line between blocks: a paragraph of its own there', () => {
    expect(insertFileLink('## A\n\n## B\n', 5, opts)).toBe(`## A\n\n[log.txt](${t()})\n\n## B\n`);
  });

  it("after a blank line's indentation (a tab, four spaces): at the line start, never indented code", () => {
    // TEST_SEED=1762087160 drew "\t" with the caret after the tab: the link became code.
    for (const md of ['\t', '    ', '  \t', '\n\t']) {
      const inserted = insertFileLink(md, md.length, opts);
      expect(
        findFileLinks(inserted).map((l) => l.fileId),
        JSON.stringify(md),
      ).toEqual([F]);
    }
    expect(insertFileLink('\t', 1, opts)).toBe(`[log.txt](${t()})\t`);
    const steps = '## Steps to reproduce\n\nGET /api HTTP/1.1\n\n\t';
    expect(insertFileLink(steps, steps.length, opts)).toBe(
      `## Steps to reproduce\n\nGET /api HTTP/1.1\n\n[log.txt](${t()})\t`,
    );
  });

  it('inserts an image embed', () => {
    expect(insertFileLink('', 0, { ...opts, image: true })).toBe(`![log.txt](${t()})`);
  });

  it('clamps the offset and does not split a surrogate pair', () => {
    expect(insertFileLink('ab', 99, opts)).toBe(`ab [log.txt](${t()})`);
    expect(insertFileLink('ab', -5, opts)).toBe(`[log.txt](${t()}) ab`);
    expect(insertFileLink('😀', 1, opts)).toBe(`😀 [log.txt](${t()})`);
  });

  it('escapes the name so the link reads back with the same text', () => {
    const name = 'a]b[c*d_e`f<g>h&amp;i\\j~k|l (1).png';
    const md = insertFileLink('x ', 2, { ...opts, name });
    const [link] = findFileLinks(md);
    expect(link).toMatchObject({ fileId: F, reportId: R });
    expect(link?.text).toBe(escapeMarkdownText(name));
    expect(md.slice(link?.start, link?.end)).toBe(`[${escapeMarkdownText(name)}](${t()})`);
  });

  it('escapes image alt text too', () => {
    const md = insertFileLink('', 0, { ...opts, name: 'x](evil)', image: true });
    const [link] = findFileLinks(md);
    expect(link).toMatchObject({ image: true, fileId: F, text: 'x](evil)' });
  });

  it('round-trips with removeFileLinks', () => {
    const md = insertFileLink('Steps: ', 7, opts);
    expect(removeFileLinks(md, F)).toBe('Steps: log.txt');
  });
});
