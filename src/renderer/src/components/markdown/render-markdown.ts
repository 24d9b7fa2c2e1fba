/**
 * Hostile Markdown → React elements, with no HTML string anywhere, by the syntax-tree libraries
 * react-markdown is made of: the rules' own parser (CommonMark + GFM) gives mdast,
 * `mdast-util-to-hast` the HTML tree (raw HTML kept as the text it is), `hast-util-sanitize` keeps
 * an allow-list of elements and attributes, and `hast-util-to-jsx-runtime` makes React elements,
 * so every text is escaped by React. Links and images go through `classifyLink` (the URL rule of
 * the app): only http, https and mailto targets stay, clicks go through callbacks (the app opens
 * them with `openExternal`), report files become "Download" actions, and no image is ever loaded.
 * Pure apart from React: unit-tested in Node with `renderToStaticMarkup`.
 */
import { createContext, createElement as h, useContext, type JSX, type ReactNode } from 'react';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';
import type { Element, ElementContent, Nodes as HtmlNodes, Properties } from 'hast';
import type { Nodes, Parents } from 'mdast';
import { sanitize, type Schema } from 'hast-util-sanitize';
import { toJsxRuntime, type Components, type ExtraProps } from 'hast-util-to-jsx-runtime';
import { defaultHandlers, toHast, type Handlers } from 'mdast-util-to-hast';
import { parseMarkdown, plainText } from '@shared/rules/markdown';
import type { FileLinkTarget } from '@shared/rules/file-links';
import { classifyLink, type SafeLink } from '../../lib/safe-url';

export interface MarkdownActions {
  /** Opens an allowed external link (http, https, mailto). */
  openExternal?(href: string): void;
  /** Saves a report file to disk; when absent, file links show as plain text. */
  downloadFile?(target: FileLinkTarget, label: string): void;
  /**
   * An image of a report file, shown from the app's own checked copy (never fetched): null when
   * there is none. When absent, or null, the image stays a link.
   */
  fileImage?(target: FileLinkTarget, alt: string): ReactNode;
  /** The words an image of a report file shows instead of `[image: name]`, or undefined. */
  fileImageText?(target: FileLinkTarget, name: string): string | undefined;
}

export interface RenderOptions extends MarkdownActions {
  /** Added to every heading level (so a policy section's headings sit below its own heading). */
  headingOffset?: number;
}

/** Deeper than this, a node shows as its text (a quote nested 10,000 times is not a document). */
const MAX_DEPTH = 64;

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];
const TABLE = ['table', 'thead', 'tbody', 'tr', 'th', 'td'];

/** What may stay of the tree: Markdown's own elements, and no attribute but these. */
const SCHEMA: Schema = {
  tagNames: [
    ...HEADINGS,
    ...TABLE,
    ...['p', 'hr', 'blockquote', 'ul', 'ol', 'li', 'input', 'pre', 'code', 'em', 'strong'],
    ...['del', 'br', 'span', 'a', 'img', 'sup', 'div'],
  ],
  attributes: {
    a: ['href', 'title'],
    img: ['src', 'alt'],
    ol: ['start'],
    input: ['type', 'checked', 'disabled'],
    code: [['className', /^language-[\w+-]+$/]],
    span: [['className', 'md-raw-html']],
    div: [['className', 'md-footnote']],
  },
  required: { input: { type: 'checkbox', disabled: true } },
  protocols: { href: ['http', 'https', 'mailto'], src: ['http', 'https', 'mailto'] },
  ancestors: Object.fromEntries(TABLE.slice(1).map((tag) => [tag, ['table']])),
  strip: [],
  clobber: [],
  clobberPrefix: '',
  allowComments: false,
  allowDoctypes: false,
};

const element = (tagName: string, properties: Properties, children: ElementContent[]): Element => ({
  type: 'element',
  tagName,
  properties,
  children,
});
const label = (node: { label?: string | null; identifier: string }): Element =>
  element('sup', {}, [{ type: 'text', value: `[${node.label ?? node.identifier}]` }]);

/** How mdast differs from GitHub's HTML here. */
function handlers(headingOffset: number): Handlers {
  return {
    // No raw HTML: the source is shown as text.
    html: (_, node) =>
      element('span', { className: ['md-raw-html'] }, [{ type: 'text', value: node.value }]),
    heading(state, node) {
      const out = defaultHandlers.heading(state, node);
      out.tagName = `h${Math.min(6, node.depth + headingOffset)}`;
      return out;
    },
    list(state, node) {
      const out = defaultHandlers.list(state, node);
      const start = out.properties.start;
      if (typeof start === 'number') out.properties.start = Math.max(0, Math.min(start, 1e9));
      return out;
    },
    // GFM drops the cells past the header's; the editor shows them, so the reader sees them too.
    tableRow(state, node, parent) {
      const out = defaultHandlers.tableRow(state, node, parent);
      const kept = out.children.filter((c) => c.type === 'element').length;
      const tag = parent?.children[0] === node ? 'th' : 'td';
      for (const cell of node.children.slice(kept)) {
        out.children.push(element(tag, {}, state.all(cell)));
      }
      return out;
    },
    // Footnotes stay where they are written, shown by their label: no in-page anchors.
    footnoteReference: (_, node) => label(node),
    footnoteDefinition: (state, node) =>
      element('div', { className: ['md-footnote'] }, [label(node), ...state.all(node)]),
  };
}

/** Below `MAX_DEPTH`, each node is replaced by its text. */
function capDepth(node: Nodes, depth: number): void {
  if (!('children' in node)) return;
  const parent = node as Parents;
  if (depth >= MAX_DEPTH) {
    parent.children = parent.children.map((c) => ({ type: 'text', value: plainText(c) })) as never;
    return;
  }
  for (const child of parent.children) capDepth(child, depth + 1);
}

/** Visible text of an HTML node, an image's alt included. */
function textOf(node: HtmlNodes | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return node.value;
  if (node.type === 'element' && node.tagName === 'img') return String(node.properties.alt ?? '');
  return 'children' in node ? node.children.map(textOf).join('') : '';
}

const Actions = createContext<MarkdownActions>({});

/** An href the sanitizer removed had a scheme other than http, https or mailto. */
const linkOf = (url: string | undefined): SafeLink =>
  url === undefined ? { kind: 'blocked', reason: 'not an allowed address' } : classifyLink(url);

function LinkTo(props: { link: SafeLink; name: string; title?: string; children: ReactNode }) {
  const actions = useContext(Actions);
  const { link, children } = props;
  if (link.kind === 'external') {
    return h(
      'a',
      {
        href: link.href,
        title: props.title ?? link.href,
        rel: 'noopener noreferrer nofollow',
        onClick: (event: { preventDefault(): void }) => {
          event.preventDefault();
          actions.openExternal?.(link.href);
        },
      },
      children,
    );
  }
  if (link.kind === 'file') {
    const name = props.name.trim() || link.target.fileId;
    if (!actions.downloadFile) return h('span', { className: 'md-file-link' }, children);
    return h(
      'button',
      {
        type: 'button',
        className: 'md-file-link link-button',
        'aria-label': `Download ${name}`,
        onClick: () => actions.downloadFile?.(link.target, name),
      },
      children,
    );
  }
  return h(
    'span',
    { className: 'md-blocked-link', title: `Link removed: ${link.reason}` },
    children,
  );
}

type Props<Tag extends 'a' | 'img' | 'input' | 'table'> = JSX.IntrinsicElements[Tag] & ExtraProps;

function MarkdownLink({ href, title, children, node }: Props<'a'>) {
  return h(LinkTo, { link: linkOf(href), name: textOf(node), title, children });
}

/** Images are never loaded: they show what they point to instead, or the app's checked copy. */
function MarkdownImage({ src, alt }: Props<'img'>) {
  const actions = useContext(Actions);
  const name = alt?.trim() || 'image';
  const link = linkOf(typeof src === 'string' ? src : undefined);
  const text =
    (link.kind === 'file' ? actions.fileImageText?.(link.target, name) : undefined) ??
    `[image: ${name}]`;
  if (link.kind === 'blocked') return h('span', { className: 'md-image md-blocked-link' }, text);
  const image = link.kind === 'file' ? actions.fileImage?.(link.target, name) : null;
  const asLink = h(LinkTo, { link, name, children: text });
  return image ? h('span', { className: 'md-evidence-image' }, image, asLink) : asLink;
}

function TaskBox({ checked }: Props<'input'>) {
  return h('input', {
    type: 'checkbox',
    checked: checked === true,
    disabled: true,
    readOnly: true,
    'aria-label': checked ? 'done' : 'not done',
  });
}

function Table({ children }: Props<'table'>) {
  return h('div', { className: 'md-table-wrap' }, h('table', null, children));
}

const COMPONENTS: Components = {
  a: MarkdownLink,
  img: MarkdownImage,
  input: TaskBox,
  table: Table,
};

export function renderMarkdown(markdown: string, options: RenderOptions = {}): ReactNode {
  const tree = parseMarkdown(markdown);
  capDepth(tree, 0);
  const html = sanitize(toHast(tree, { handlers: handlers(options.headingOffset ?? 0) }), SCHEMA);
  return h(
    Actions.Provider,
    { value: options },
    toJsxRuntime(html, { Fragment, jsx, jsxs, components: COMPONENTS, passNode: true }),
  );
}
