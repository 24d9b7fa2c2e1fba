/**
 * Whether two Markdown texts read the same to a reader of the app (the editor's round trip: the
 * typed text and what the editor stored). Shared by the round-trip tests and
 * `bench/editor-roundtrip.ts`.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { createElement } from 'react';
import { renderMarkdown } from '../../../src/renderer/src/components/markdown/render-markdown';

/**
 * What a reader sees: the app's renderer (CommonMark + GFM, references resolved, raw HTML as
 * text) as HTML, whitespace runs as one space (trailing spaces, hard-break forms and setext or
 * ATX headings all read the same).
 */
function seen(markdown: string): string {
  return (
    renderToStaticMarkup(createElement('div', null, renderMarkdown(markdown)))
      // Raw HTML is shown as its text: a typed `<b>` stored as typed reads as the same text.
      .replace(/<span class="md-raw-html">([^<]*)<\/span>/g, '$1')
      .replace(/\s+/g, ' ')
      .replace(
        / ?(<\/?(?:p|li|ul|ol|h\d|blockquote|pre|table|thead|tbody|tr|td|th|hr|br)\b[^>]*>) ?/g,
        '$1',
      )
  );
}
/**
 * Emphasis, strong or strikethrough inside one of its own kind looks as the outer one alone (the
 * editor reads it so, as one mark): only the outermost tag of each kind is kept.
 */
function withoutNestedMarks(html: string): string {
  const depth = new Map<string, number>();
  return html.replace(/<(\/?)(em|strong|del)>/g, (tag, close: string, name: string) => {
    const before = depth.get(name) ?? 0;
    const after = close ? before - 1 : before + 1;
    depth.set(name, after);
    return (close ? after === 0 : before === 0) ? tag : '';
  });
}
export const sameReading = (a: string, b: string): boolean =>
  withoutNestedMarks(seen(a)) === withoutNestedMarks(seen(b));

/**
 * The CommonMark examples (by number) the editor stores so that the app's renderer builds other
 * HTML, which looks the same: ProseMirror holds marks as a flat set on each piece of text, and a
 * link needs text.
 */
const SPLIT_MARK = 'a mark over text with another mark on part of it is written as two of it';
export const COMMONMARK_READ_DIFFERENTLY = new Map<number, string>([
  [430, SPLIT_MARK],
  [433, 'emphasis inside a link and a link inside emphasis are the same marks'],
  [484, 'a link without text (nothing shown) cannot be held: it is dropped'],
  [487, 'a link without text (nothing shown) cannot be held: it is dropped'],
  [554, SPLIT_MARK],
  [558, SPLIT_MARK],
  [559, SPLIT_MARK],
]);
