import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Schema, type Node as ProseNode } from '@milkdown/kit/prose/model';
import { EditorState, TextSelection } from '@milkdown/kit/prose/state';
import { patchDocument } from '../../src/renderer/src/editor/patch-document';
import { reportExcerptArb } from '../support/report-texts';

// The description editor's kinds of block that matter here, with the attributes Milkdown gives
// them: a list and its items are "spread" or not, a heading has a level, a code block a language.
const schema = new Schema({
  nodes: {
    doc: { content: 'block+' },
    paragraph: { group: 'block', content: 'inline*' },
    heading: { group: 'block', content: 'inline*', attrs: { level: { default: 2 } } },
    code_block: {
      group: 'block',
      content: 'text*',
      marks: '',
      code: true,
      attrs: { language: { default: '' } },
    },
    bullet_list: { group: 'block', content: 'list_item+', attrs: { spread: { default: false } } },
    list_item: { content: 'paragraph block*', attrs: { spread: { default: false } } },
    text: { group: 'inline' },
  },
  marks: { strong: {} },
});
const { nodes } = schema;
const text = (s: string) => (s === '' ? [] : [schema.text(s)]);
const p = (s: string) => nodes.paragraph.create(null, text(s));
const h = (s: string, level = 2) => nodes.heading.create({ level }, text(s));
const code = (s: string, language = 'http') => nodes.code_block.create({ language }, text(s));
const list = (items: string[], spread = false) =>
  nodes.bullet_list.create(
    { spread },
    items.map((s) => nodes.list_item.create({ spread }, [p(s)])),
  );
const doc = (...blocks: ProseNode[]) => nodes.doc.create(null, blocks);

const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMzM3Iiwicm9sZSI6InVzZXIifQ.4pcPyMD09olPSyXnrXCjTwXyr4BsezdI1AVTmud2fU4';
const request = (token: string) =>
  `POST /api/v2/users/1337/roles HTTP/1.1\nHost: api.example.com\nAuthorization: Bearer ${token}\nContent-Type: application/json\n\n{"role": "admin", "scope": "*.example.com"}`;

/** The document after `patchDocument`, and where the caret went. */
function patched(before: ProseNode, after: ProseNode, caret: number) {
  const state = EditorState.create({ doc: before });
  const tr = state.tr.setSelection(TextSelection.create(before, caret));
  patchDocument(tr, before, after);
  return { doc: tr.doc, caret: tr.selection.from, steps: tr.steps.length };
}

/** The position just after `needle` in `node`'s text. */
function after(node: ProseNode, needle: string): number {
  let found = -1;
  node.descendants((child, pos) => {
    const at = child.isText ? (child.text ?? '').indexOf(needle) : -1;
    if (found < 0 && at >= 0) found = pos + at + needle.length;
    return found < 0;
  });
  if (found < 0) throw new Error(`no "${needle}"`);
  return found;
}

describe('patchDocument: a new description put in place of the one in the editor', () => {
  it('keeps the caret in a typed list when a token below it is redacted (walk 17)', () => {
    // Typed, the list is "spread"; parsed from the engine's Markdown, it is not.
    const typed = doc(
      h('Summary'),
      list(['*.example.com', 'api.example.com (staging too)'], true),
      code(request(JWT)),
      h('Expected behavior'),
      p('Seen on C:\\Users\\me\\capture.har too.'),
    );
    const redacted = doc(
      h('Summary'),
      list(['*.example.com', 'api.example.com (staging too)']),
      code(request('[REDACTED:jwt]')),
      h('Expected behavior'),
      p('Seen on C:\\Users\\me\\capture.har too.'),
    );
    const caret = after(typed, '(staging too)');
    const result = patched(typed, redacted, caret);
    expect(result.doc.eq(redacted)).toBe(true);
    // The same place: the end of the second item, in a list.
    expect(result.caret).toBe(after(result.doc, '(staging too)'));
    expect(result.doc.resolve(result.caret).node(-2).type.name).toBe('bullet_list');
  });

  it('keeps the caret when the parse has fewer blocks than were typed, around it (walk 18)', () => {
    // Typed by keyboard: empty lines between blocks, which the Markdown read back does not have.
    const poc =
      'The PoC is saved at C:\\Users\\alice\\AppData\\Local\\Temp\\poc.html and replays (once) the request.';
    const typed = doc(
      h('Steps to reproduce'),
      p('Every tenant under *.example.com checks only the login. Tested hosts:'),
      list(['acme.example.com (production)', 'globex.example.com'], true),
      p(''),
      p('As user 1337, send:'),
      code(request(JWT)),
      p(''),
      p(poc),
      p('| Account | Role before | Role after |'),
      p(''),
      h('Expected behavior'),
    );
    const redacted = doc(
      h('Steps to reproduce'),
      p('Every tenant under *.example.com checks only the login. Tested hosts:'),
      list(['acme.example.com (production)', 'globex.example.com']),
      p('As user 1337, send:'),
      code(request('[REDACTED:jwt]')),
      p(poc),
      p('| Account | Role before | Role after |'),
      h('Expected behavior'),
    );
    const result = patched(typed, redacted, after(typed, 'replays (once)'));
    expect(result.doc.eq(redacted)).toBe(true);
    expect(result.caret).toBe(after(result.doc, 'replays (once)'));
  });

  it('changes a heading level or a language, and replaces what the parse built otherwise', () => {
    const before = doc(h('Steps', 2), code('GET / HTTP/1.1', 'http'), p('x'));
    const next = doc(h('Steps', 3), code('GET / HTTP/1.1', 'json'), list(['x']));
    expect(patched(before, next, 1).doc.eq(next)).toBe(true);
  });

  it('leaves an equal document untouched', () => {
    const same = doc(h('Summary'), list(['*.example.com']), code(request(JWT)));
    expect(patched(same, same.copy(same.content), 1).steps).toBe(0);
  });

  it('always ends with the new document, whatever the two are (real report lines)', () => {
    const lines = reportExcerptArb(600, 4).map((t) =>
      t
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
        .slice(0, 6),
    );
    const block = (ls: string[]) =>
      fc.oneof(
        fc.constantFrom(...ls.map((l) => p(l))),
        fc.constantFrom(...ls.map((l) => h(l, 2)), ...ls.map((l) => h(l, 3))),
        fc.constant(code(ls.join('\n'))),
        fc.boolean().map((spread) => list(ls.slice(0, 3), spread)),
      );
    // Two documents from the same lines: blocks in common, in other places, with other marks.
    const pair = lines
      .filter((ls) => ls.length > 0)
      .chain((ls) => {
        const blocks = fc.array(block(ls), { minLength: 1, maxLength: 6 });
        return fc.tuple(blocks, blocks);
      })
      .map(([a, b]) => [doc(...a), doc(...b)] as const);
    fc.assert(
      fc.property(pair, ([a, b]) => {
        const result = patched(a, b, TextSelection.atStart(a).from);
        expect(result.doc.eq(b)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
