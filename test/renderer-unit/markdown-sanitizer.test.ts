import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createElement, Fragment } from 'react';
import { renderMarkdown } from '../../src/renderer/src/components/markdown/render-markdown';

const html = (md: string, withDownloads = true): string =>
  renderToStaticMarkup(
    createElement(
      Fragment,
      null,
      renderMarkdown(
        md,
        withDownloads ? { downloadFile: () => undefined, openExternal: () => undefined } : {},
      ),
    ),
  );

/** Real tags of the output (React escapes every `<` and `"` of text and attribute values). */
const tags = (out: string): { name: string; attributes: string[] }[] =>
  [...out.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>/g)].map((m) => ({
    name: (m[1] ?? '').toLowerCase(),
    attributes: [...(m[2] ?? '').matchAll(/([^\s=]+)="[^"]*"/g)].map((a) =>
      (a[1] ?? '').toLowerCase(),
    ),
  }));

const ALLOWED_TAGS = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'blockquote',
  'ul',
  'ol',
  'li',
  'input',
  'pre',
  'code',
  'em',
  'strong',
  'del',
  'br',
  'span',
  'a',
  'button',
  'sup',
  'div',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]);
const ALLOWED_ATTRIBUTES = new Set([
  'href',
  'title',
  'rel',
  'class',
  'type',
  'aria-label',
  'checked',
  'disabled',
  'readonly',
  'start',
]);

const XSS_CORPUS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '[click](javascript:alert(1))',
  '[click](JaVaScRiPt:alert(1))',
  '[click](java\tscript:alert(1))',
  '[click](&#106;avascript:alert(1))',
  '[click](javascript&#58;alert(1))',
  '[click](%6Aavascript:alert(1))',
  '[click]( javascript:alert(1))',
  '[click](<javascript:alert(1)>)',
  '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[click](vbscript:msgbox(1))',
  '[click](file:///etc/passwd)',
  '[click](//evil.example/x)',
  '![x](javascript:alert(1))',
  '![x](https://evil.example/track.png)',
  '![x](data:image/svg+xml,<svg onload=alert(1)>)',
  '[ref]\n\n[ref]: javascript:alert(1)',
  '<a href="javascript:alert(1)">x</a>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<details open ontoggle=alert(1)>',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '<!--><script>alert(1)</script>-->',
  '```html\n<script>alert(1)</script>\n```',
  '<https://ok.example/"onmouseover="alert(1)>',
  '[x](https://ok.example/" onmouseover="alert(1))',
  '**<img src=x onerror=alert(1)>**',
  '| a |\n|---|\n| <script>alert(1)</script> |',
];

function expectInert(out: string): void {
  for (const tag of tags(out)) {
    expect(ALLOWED_TAGS).toContain(tag.name);
    for (const name of tag.attributes) expect(ALLOWED_ATTRIBUTES).toContain(name);
  }
  for (const m of out.matchAll(/href="([^"]*)"/g)) {
    expect(m[1]).toMatch(/^(https?:|mailto:)/);
  }
}

describe('Markdown rendering of hostile input', () => {
  it.each(XSS_CORPUS)('renders %j without any executable markup', (input) => {
    expectInert(html(input));
  });

  it('never throws nor outputs a tag or attribute off the list, whatever the text', () => {
    const piece = fc.oneof(
      fc.constantFrom(...XSS_CORPUS),
      fc.constantFrom('# h', '- [ ] t', '1. n', '| a |\n|:-:|', '[^1]', '[^1]: x', '> q', '\n\n'),
      fc.constantFrom('[r]', '[r]: https://x.example "t"', '![i][r]', '`c`', '***', '<b>', '&amp;'),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (pieces) => {
        expectInert(html(pieces.join('')));
      }),
      { numRuns: 200 },
    );
  });

  it('shows footnotes by their label where they are written, with no in-page anchor or id', () => {
    const out = html('A claim.[^src]\n\n[^src]: The source.');
    expect(out).toContain('A claim.<sup>[src]</sup>');
    expect(out).toMatch(/<div class="md-footnote"><sup>\[src\]<\/sup>\s*<p>The source.<\/p>/);
    expect(out).not.toMatch(/\sid=|href="#/);
  });

  it('keeps a code block’s language as a class and drops table alignment', () => {
    const out = html('```js\nx\n```\n\n| a |\n|:-:|\n| 1 |');
    expect(out).toContain('<code class="language-js">');
    expect(out).not.toContain('align');
    expect(out).toContain('<div class="md-table-wrap"><table>');
  });

  it('shows a row’s cells past the header’s, as the editor does (GFM would drop them)', () => {
    const out = html('| a |\n| --- |\n| 1 | 2 |');
    expect(out).toMatch(/<td>1<\/td>\s*<td>2<\/td>/);
  });

  it('resolves reference links and images through the same checks', () => {
    const out = html(
      '[a][ok] [b][bad] ![c][img]\n\n[ok]: https://x.example/\n[bad]: javascript:x\n[img]: https://i.example/c.png',
    );
    expect(out).toContain('href="https://x.example/"');
    expect(out).toContain(
      '<span class="md-blocked-link" title="Link removed: not an allowed address">b</span>',
    );
    expect(out).toContain('href="https://i.example/c.png"');
    expect(out).toContain('[image: c]');
  });

  it('shows raw HTML as literal text', () => {
    const out = html('<b onclick="x()">bold</b>');
    expect(out).toContain('&lt;b onclick=&quot;x()&quot;&gt;');
    expect(out).not.toContain('<b ');
  });

  it('keeps http, https and mailto links, with safe rel', () => {
    const out = html(
      '[a](https://example.com/a?b=1) [m](mailto:x@example.com) [h](http://example.com)',
    );
    expect(out).toContain('href="https://example.com/a?b=1"');
    expect(out).toContain('href="mailto:x@example.com"');
    expect(out).toContain('href="http://example.com/"');
    expect(out).toContain('rel="noopener noreferrer nofollow"');
  });

  it('turns links to report files into "Download" buttons, and plain text without a handler', () => {
    const md = '[poc.txt](/reports/r-1/files/f-1)';
    expect(html(md)).toMatch(/<button[^>]*aria-label="Download poc.txt"[^>]*>poc.txt<\/button>/);
    expect(html(md, false)).not.toContain('<button');
    expect(html(md, false)).not.toContain('href');
  });

  it('never loads images: remote ones become links, file images become downloads', () => {
    expect(html('![shot](https://img.example/a.png)')).toContain(
      'href="https://img.example/a.png"',
    );
    expect(html('![shot](https://img.example/a.png)')).toContain('[image: shot]');
    expect(html('![shot](/reports/r/files/f)')).toContain('aria-label="Download shot"');
  });

  it('drops relative and unknown-scheme links but keeps their text', () => {
    const out = html('[here](../../etc) and [there](ftp://x.example/)');
    expect(out).not.toContain('href');
    expect(out).toContain('here');
    expect(out).toContain('there');
  });

  it('renders GFM tables, task lists and strikethrough as plain elements', () => {
    const out = html('| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n\n~~old~~');
    expect(out).toContain('<table>');
    expect(out).toContain('<th>a</th>');
    expect(out).toContain('type="checkbox"');
    expect(out).toContain('<del>old</del>');
  });

  it('shifts heading levels and caps them at h6', () => {
    expect(html('# Top', false)).toContain('<h1>');
    const shifted = renderToStaticMarkup(
      createElement(Fragment, null, renderMarkdown('# Top\n\n###### Deep', { headingOffset: 3 })),
    );
    expect(shifted).toContain('<h4>Top</h4>');
    expect(shifted).toContain('<h6>Deep</h6>');
  });

  it('survives pathological nesting', () => {
    const deep = '>'.repeat(500) + ' x';
    expect(() => html(deep)).not.toThrow();
    expect(html(deep)).toContain('x');
  });
});
