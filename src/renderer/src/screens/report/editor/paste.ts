/**
 * What the researcher pastes into the description, made safe before it reaches the document:
 * - HTML (from a browser, an office suite) is parsed into an inert document (`DOMParser` never
 *   runs scripts or loads images), copied through an allow-list of Markdown-able elements (no
 *   attribute survives but a vetted link target), then read by the editor's own schema, i.e.
 *   converted to the Markdown the editor writes;
 * - plain text is read as Markdown, and raw HTML in it stays visible text;
 * - a remote image becomes a plain link to its address (nothing is fetched, and no image of
 *   another site is embedded in the report); an image of a report file stays;
 * - with the caret in a template heading, the paste goes to the section below it.
 */
import { parserCtx, schemaCtx } from '@milkdown/kit/core';
import type { Ctx } from '@milkdown/kit/ctx';
import {
  DOMParser as ProseDOMParser,
  Fragment,
  Slice,
  type Node as ProseNode,
  type Schema,
} from '@milkdown/kit/prose/model';
import { Plugin, PluginKey } from '@milkdown/kit/prose/state';
import { classifyLink, sanitizeEditorHref } from '../../../lib/safe-url';
import { caretIntoSection } from './sections';

const KEEP = new Set([
  'P',
  'BR',
  'STRONG',
  'B',
  'EM',
  'I',
  'CODE',
  'PRE',
  'UL',
  'OL',
  'LI',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'BLOCKQUOTE',
  'HR',
  'TABLE',
  'THEAD',
  'TBODY',
  'TR',
  'TH',
  'TD',
  'DEL',
  'S',
  'A',
]);
/** Elements whose content is not text for the reader: dropped with everything inside. */
const DROP = new Set([
  'SCRIPT',
  'STYLE',
  'TEMPLATE',
  'NOSCRIPT',
  'IFRAME',
  'OBJECT',
  'EMBED',
  'SVG',
  'MATH',
  'HEAD',
  'TITLE',
  'META',
  'LINK',
  'BASE',
  'FORM',
  'INPUT',
  'BUTTON',
  'SELECT',
  'TEXTAREA',
  'VIDEO',
  'AUDIO',
  'CANVAS',
  'FRAME',
  'FRAMESET',
  'APPLET',
  'PORTAL',
]);
const BLOCKS = new Set(['DIV', 'SECTION', 'ARTICLE', 'MAIN', 'HEADER', 'FOOTER', 'ASIDE', 'NAV']);

/** Copies `from`'s children into `to` (both in the inert document) through the allow-list. */
function copyAllowed(from: Node, to: Node, doc: Document): void {
  for (const child of Array.from(from.childNodes)) {
    if (child.nodeType === 3) {
      to.appendChild(doc.createTextNode(child.textContent ?? ''));
      continue;
    }
    if (child.nodeType !== 1) continue;
    const element = child as Element;
    const tag = element.tagName.toUpperCase();
    if (DROP.has(tag)) continue;
    if (tag === 'IMG') {
      const src = element.getAttribute('src') ?? '';
      const alt = (element.getAttribute('alt') ?? '').trim();
      const href = sanitizeEditorHref(src);
      if (classifyLink(src).kind === 'file') {
        const img = doc.createElement('img');
        img.setAttribute('src', href);
        img.setAttribute('alt', alt);
        to.appendChild(img);
      } else if (href) {
        const a = doc.createElement('a');
        a.setAttribute('href', href);
        a.textContent = alt || href;
        to.appendChild(a);
      } else if (alt) {
        to.appendChild(doc.createTextNode(alt));
      }
      continue;
    }
    if (KEEP.has(tag)) {
      const copy = doc.createElement(tag.toLowerCase());
      if (tag === 'A') {
        const href = sanitizeEditorHref(element.getAttribute('href'));
        if (!href) {
          copyAllowed(element, to, doc);
          continue;
        }
        copy.setAttribute('href', href);
      }
      copyAllowed(element, copy, doc);
      to.appendChild(copy);
      continue;
    }
    if (BLOCKS.has(tag)) {
      const block = doc.createElement('p');
      copyAllowed(element, block, doc);
      // A wrapper of blocks is not a paragraph: keep its blocks as they are.
      if (
        Array.from(block.children).some(
          (c) =>
            !['A', 'STRONG', 'B', 'EM', 'I', 'CODE', 'BR', 'DEL', 'S', 'IMG'].includes(c.tagName),
        )
      ) {
        copyAllowed(element, to, doc);
      } else {
        to.appendChild(block);
      }
      continue;
    }
    copyAllowed(element, to, doc);
  }
}

/** Pasted HTML as an inert, allow-listed DOM. */
export function sanitizePastedHtml(html: string): HTMLElement {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const root = doc.createElement('div');
  copyAllowed(doc.body, root, doc);
  return root;
}

/** A pasted (or parsed) fragment with raw HTML as text and remote images as links. */
export function sanitizeFragment(fragment: Fragment, schema: Schema): Fragment {
  const nodes: ProseNode[] = [];
  fragment.forEach((node) => {
    if (node.type.name === 'html') {
      const value = String(node.attrs.value ?? '');
      if (value) nodes.push(schema.text(value, node.marks));
      return;
    }
    if (node.type.name === 'image') {
      const src = String(node.attrs.src ?? '');
      if (classifyLink(src).kind === 'file') {
        // The app's own file embed, with no title taken from the page it came from.
        nodes.push(node.type.create({ ...node.attrs, title: '' }, null, node.marks));
        return;
      }
      const alt = String(node.attrs.alt ?? '').trim();
      const href = sanitizeEditorHref(src);
      const link = schema.marks.link;
      if (href && link)
        nodes.push(schema.text(alt || href, [...node.marks, link.create({ href, title: '' })]));
      else if (alt) nodes.push(schema.text(alt, node.marks));
      return;
    }
    nodes.push(node.isLeaf ? node : node.copy(sanitizeFragment(node.content, schema)));
  });
  return Fragment.from(nodes);
}

export function pastePlugin(ctx: Ctx): Plugin {
  return new Plugin({
    key: new PluginKey('bounty-desk-paste'),
    props: {
      handlePaste(view, event) {
        const data = event.clipboardData;
        if (!data || !view.editable) return false;
        // In a code block, text stays text (ProseMirror's own paste does that).
        if (view.state.selection.$from.parent.type.spec.code) return false;
        const html = data.getData('text/html');
        const text = data.getData('text/plain');
        if (!html && !text) return false;
        const schema = ctx.get(schemaCtx);
        let content: Fragment;
        if (html) {
          content = ProseDOMParser.fromSchema(schema).parseSlice(sanitizePastedHtml(html)).content;
        } else {
          const parsed = ctx.get(parserCtx)(text);
          if (!parsed || typeof parsed === 'string') return false;
          content = parsed.content;
        }
        const slice = Slice.maxOpen(sanitizeFragment(content, schema));
        let tr = caretIntoSection(view.state) ?? view.state.tr;
        tr = tr.replaceSelection(slice).scrollIntoView();
        view.dispatch(tr.setMeta('paste', true).setMeta('uiEvent', 'paste'));
        return true;
      },
    },
  });
}
