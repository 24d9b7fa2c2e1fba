/**
 * What the researcher pastes into the description, made safe before it reaches the document:
 * - HTML (from a browser, an office suite) goes through DOMPurify with an allow-list of
 *   Markdown-able elements (no attribute survives but a vetted link target), then is read by the
 *   editor's own schema, i.e. converted to the Markdown the editor writes;
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
import createDOMPurify, { type DOMPurify } from 'dompurify';
import { classifyLink, sanitizeEditorHref } from '../lib/safe-url';
import { caretIntoSection } from './sections';

/**
 * What a paste keeps: the elements Markdown can say, images (made links below), and the wrappers
 * ProseMirror reads as blocks (so two `<div>` lines stay two paragraphs).
 */
const KEEP = [
  ...['p', 'br', 'strong', 'b', 'em', 'i', 'code', 'pre', 'ul', 'ol', 'li', 'blockquote', 'hr'],
  ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'thead', 'tbody', 'tr', 'th', 'td'],
  ...['del', 's', 'a', 'img'],
  ...['div', 'section', 'article', 'header', 'footer', 'aside', 'figure', 'figcaption', 'address'],
];
/** Elements whose content is not text for the reader: dropped with everything inside. */
const DROP = [
  ...['script', 'style', 'template', 'noscript', 'iframe', 'object', 'embed', 'svg', 'math'],
  ...['head', 'title', 'meta', 'link', 'base', 'form', 'input', 'button', 'select', 'textarea'],
  ...['video', 'audio', 'canvas', 'frame', 'frameset', 'applet', 'portal'],
];

let purifier: DOMPurify | undefined;

/** DOMPurify of its own (its hooks are global to an instance), with links kept only when vetted. */
function purify(): DOMPurify {
  if (purifier) return purifier;
  purifier = createDOMPurify(window);
  purifier.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName !== 'A') return;
    const href = sanitizeEditorHref(node.getAttribute('href'));
    if (href) node.setAttribute('href', href);
    else node.removeAttribute('href'); // The editor reads a link without a target as its text.
  });
  return purifier;
}

/** A remote image becomes a plain link to its address; an image of a report file stays. */
function imagesAsLinks(root: HTMLElement): void {
  for (const img of Array.from(root.querySelectorAll('img'))) {
    const src = img.getAttribute('src') ?? '';
    const alt = (img.getAttribute('alt') ?? '').trim();
    const href = sanitizeEditorHref(src);
    if (classifyLink(src).kind === 'file') {
      img.setAttribute('src', href);
      img.setAttribute('alt', alt);
    } else if (href) {
      const a = img.ownerDocument.createElement('a');
      a.setAttribute('href', href);
      a.textContent = alt || href;
      img.replaceWith(a);
    } else {
      img.replaceWith(alt);
    }
  }
}

/**
 * Pasted HTML as an inert, allow-listed DOM (DOMPurify parses it into a document of its own, where
 * no script runs and no image loads), with no attribute but a vetted link or file-image target.
 */
export function sanitizePastedHtml(html: string): HTMLElement {
  const root = purify().sanitize(html, {
    ALLOWED_TAGS: KEEP,
    ALLOWED_ATTR: ['href', 'src', 'alt'],
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    FORBID_CONTENTS: DROP,
    RETURN_DOM: true,
  }) as HTMLElement; // The `<body>` of DOMPurify's inert document.
  imagesAsLinks(root);
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
