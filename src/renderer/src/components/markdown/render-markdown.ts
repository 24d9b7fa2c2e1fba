/**
 * Hostile Markdown → React elements, with no HTML string anywhere.
 *
 * The text is parsed to mdast (CommonMark + GFM, the rules' parser) and walked with an allow-list
 * of node types; each becomes a React element, so every text is escaped by React and no attribute
 * comes from the input except a vetted link target. Raw HTML is shown as literal text, images are
 * never loaded (they become links or file "Download" actions), links keep only http, https and
 * mailto targets, and clicks go through callbacks (the app opens them with `openExternal`).
 * Pure apart from React: unit-tested in Node with `renderToStaticMarkup`.
 */
import { createElement as h, Fragment, type ReactNode } from 'react';
import type { Definition, Nodes, Parents, Root, RootContent } from 'mdast';
import { parseMarkdown, plainText } from '../../../../shared/rules/markdown';
import type { FileLinkTarget } from '../../../../shared/rules/file-links';
import { classifyLink } from '../../lib/safe-url';

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
}

export interface RenderOptions extends MarkdownActions {
  /** Added to every heading level (so a policy section's headings sit below its own heading). */
  headingOffset?: number;
}

const MAX_DEPTH = 64;

function collectDefinitions(root: Root): Map<string, Definition> {
  const defs = new Map<string, Definition>();
  const walk = (node: Nodes): void => {
    if (node.type === 'definition') {
      const id = node.identifier.toLowerCase();
      if (!defs.has(id)) defs.set(id, node);
    }
    if ('children' in node) for (const child of node.children as Nodes[]) walk(child);
  };
  walk(root);
  return defs;
}

export function renderMarkdown(markdown: string, options: RenderOptions = {}): ReactNode {
  const root = parseMarkdown(markdown);
  const defs = collectDefinitions(root);
  const offset = options.headingOffset ?? 0;
  let keySeq = 0;
  const key = (): string => `m${keySeq++}`;

  const children = (node: Parents, depth: number): ReactNode[] =>
    (node.children as RootContent[]).map((c) => render(c, depth + 1));

  function linkElement(
    url: string,
    label: ReactNode,
    labelText: string,
    title?: string | null,
  ): ReactNode {
    const link = classifyLink(url);
    if (link.kind === 'external') {
      return h(
        'a',
        {
          key: key(),
          href: link.href,
          title: title ?? link.href,
          rel: 'noopener noreferrer nofollow',
          onClick: (event: { preventDefault(): void }) => {
            event.preventDefault();
            options.openExternal?.(link.href);
          },
        },
        label,
      );
    }
    if (link.kind === 'file') {
      const name = labelText.trim() || link.target.fileId;
      if (!options.downloadFile) {
        return h('span', { key: key(), className: 'md-file-link' }, label);
      }
      return h(
        'button',
        {
          key: key(),
          type: 'button',
          className: 'md-file-link link-button',
          'aria-label': `Download ${name}`,
          onClick: () => options.downloadFile?.(link.target, name),
        },
        label,
      );
    }
    return h(
      'span',
      { key: key(), className: 'md-blocked-link', title: `Link removed: ${link.reason}` },
      label,
    );
  }

  function imageElement(url: string, alt: string): ReactNode {
    // Images are never loaded: show what they point to instead.
    const label = alt.trim() || 'image';
    const link = classifyLink(url);
    if (link.kind === 'blocked') {
      return h('span', { key: key(), className: 'md-image md-blocked-link' }, `[image: ${label}]`);
    }
    const image = link.kind === 'file' ? options.fileImage?.(link.target, label) : null;
    if (image) {
      return h(
        'span',
        { key: key(), className: 'md-evidence-image' },
        image,
        linkElement(url, `[image: ${label}]`, label),
      );
    }
    return linkElement(url, `[image: ${label}]`, label);
  }

  function render(node: RootContent | Root, depth: number): ReactNode {
    if (depth > MAX_DEPTH) return plainText(node as Nodes);
    switch (node.type) {
      case 'root':
        return h(Fragment, { key: key() }, children(node, depth));
      case 'paragraph':
        return h('p', { key: key() }, children(node, depth));
      case 'heading': {
        const level = Math.min(6, node.depth + offset);
        return h(`h${level}`, { key: key() }, children(node, depth));
      }
      case 'thematicBreak':
        return h('hr', { key: key() });
      case 'blockquote':
        return h('blockquote', { key: key() }, children(node, depth));
      case 'list': {
        const start =
          node.ordered && typeof node.start === 'number' && node.start !== 1
            ? { start: Math.max(0, Math.min(node.start, 1e9)) }
            : {};
        return h(node.ordered ? 'ol' : 'ul', { key: key(), ...start }, children(node, depth));
      }
      case 'listItem': {
        const box =
          typeof node.checked === 'boolean'
            ? h('input', {
                key: key(),
                type: 'checkbox',
                checked: node.checked,
                disabled: true,
                readOnly: true,
                'aria-label': node.checked ? 'done' : 'not done',
              })
            : null;
        return h('li', { key: key() }, box, children(node, depth));
      }
      case 'code':
        return h('pre', { key: key() }, h('code', null, node.value));
      case 'inlineCode':
        return h('code', { key: key() }, node.value);
      case 'emphasis':
        return h('em', { key: key() }, children(node, depth));
      case 'strong':
        return h('strong', { key: key() }, children(node, depth));
      case 'delete':
        return h('del', { key: key() }, children(node, depth));
      case 'break':
        return h('br', { key: key() });
      case 'text':
        return node.value;
      case 'html':
        // No raw HTML: the source is shown as text.
        return h('span', { key: key(), className: 'md-raw-html' }, node.value);
      case 'link':
        return linkElement(node.url, children(node, depth), plainText(node), node.title);
      case 'image':
        return imageElement(node.url, node.alt ?? '');
      case 'linkReference': {
        const def = defs.get(node.identifier.toLowerCase());
        if (!def) return h(Fragment, { key: key() }, children(node, depth));
        return linkElement(def.url, children(node, depth), plainText(node), def.title);
      }
      case 'imageReference': {
        const def = defs.get(node.identifier.toLowerCase());
        return def ? imageElement(def.url, node.alt ?? '') : (node.alt ?? '');
      }
      case 'definition':
        return null;
      case 'footnoteReference':
        return h('sup', { key: key() }, `[${node.label ?? node.identifier}]`);
      case 'footnoteDefinition':
        return h(
          'div',
          { key: key(), className: 'md-footnote' },
          h('sup', null, `[${node.label ?? node.identifier}]`),
          children(node, depth),
        );
      case 'table': {
        const [head, ...body] = node.children;
        return h(
          'div',
          { key: key(), className: 'md-table-wrap' },
          h(
            'table',
            null,
            head ? h('thead', null, renderRow(head, depth, true)) : null,
            body.length
              ? h(
                  'tbody',
                  null,
                  body.map((r) => renderRow(r, depth, false)),
                )
              : null,
          ),
        );
      }
      default:
        // Anything not on the list (yaml, math, future node types) shows as its text.
        return plainText(node as Nodes);
    }
  }

  function renderRow(row: RootContent, depth: number, header: boolean): ReactNode {
    if (row.type !== 'tableRow') return null;
    return h(
      'tr',
      { key: key() },
      row.children.map((cell) =>
        h(header ? 'th' : 'td', { key: key() }, children(cell, depth + 1)),
      ),
    );
  }

  return render(root, 0);
}
