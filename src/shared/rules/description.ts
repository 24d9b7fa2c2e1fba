/**
 * The description template and the "text below the headings" rule of submission.
 *
 * Rule (client checklist and sandbox `incomplete_report` apply the same function):
 * - every template heading must be present as a top-level ATX or setext heading of any level,
 *   matched on its plain text, trimmed, with inner runs of whitespace collapsed, case-insensitively
 *   ("## steps TO reproduce " matches; "Steps to reproduce:" does not);
 * - below it there must be some content before its section ends: a paragraph with non-blank text,
 *   a list, a non-empty code block, a table, a block quote with content, an image or a link...
 *   HTML comments, line-break tags (`<br />`), thematic breaks, blank HTML and link reference
 *   definitions are not content;
 * - a section ends at the next top-level heading of the same or a higher level (fewer `#`), or at
 *   any other template heading, so content under a sub-heading ("### Setup" under "## Steps to
 *   reproduce") counts for the section. Headings inside lists or block quotes are content;
 * - a heading given more than once has text when any of its occurrences has.
 * The document is parsed with mdast (CommonMark + GFM); text inside code is never a heading.
 */
import type { Nodes, RootContent } from 'mdast';
import { TEMPLATE_HEADINGS } from '../api/index';
import { parseMarkdown, plainText, withoutHtmlComments } from './markdown';

// The API document's list (part 2, ReportInput), kept in one place.
export { TEMPLATE_HEADINGS };

export type TemplateHeading = (typeof TEMPLATE_HEADINGS)[number];

export interface DescriptionSection {
  heading: TemplateHeading;
  present: boolean;
  hasText: boolean;
}

export interface DescriptionCheck {
  complete: boolean;
  sections: DescriptionSection[];
}

/** A new description: each template heading as `## ` with an empty line under it. */
export function descriptionTemplate(): string {
  return TEMPLATE_HEADINGS.map((h) => `## ${h}\n\n`).join('');
}

export function normalizeHeading(text: string): string {
  return text.trim().split(/\s+/u).join(' ').toLowerCase();
}

const TEMPLATE_BY_KEY = new Map<string, TemplateHeading>(
  TEMPLATE_HEADINGS.map((h) => [normalizeHeading(h), h]),
);

/** The template heading a heading text stands for, if any. */
export function templateHeadingOf(text: string): TemplateHeading | undefined {
  return TEMPLATE_BY_KEY.get(normalizeHeading(text));
}

const LINE_BREAK_TAGS = /<br\s*\/?>/gi;

/** Whether a node shows something a reader would count as text below a heading. */
export function hasContent(node: Nodes): boolean {
  switch (node.type) {
    case 'text':
    case 'inlineCode':
    case 'code':
      return node.value.trim() !== '';
    case 'html':
      // Editors write an empty line as `<br />`: a line break is not text.
      return withoutHtmlComments(node.value).replace(LINE_BREAK_TAGS, '').trim() !== '';
    case 'image':
    case 'imageReference':
    case 'link':
    case 'linkReference':
    case 'footnoteReference':
      return true;
    case 'thematicBreak':
    case 'definition':
    case 'break':
    case 'yaml':
      return false;
    default: {
      // Containers (paragraph, list, table, block quote, emphasis...) and any node type added by
      // an extension: content when a child has content, or when it carries a non-blank value.
      const other = node as { children?: Nodes[]; value?: unknown };
      if (other.children) return other.children.some(hasContent);
      return typeof other.value === 'string' && other.value.trim() !== '';
    }
  }
}

export function checkDescription(markdown: string): DescriptionCheck {
  const children: RootContent[] = parseMarkdown(markdown ?? '').children;
  const present = new Set<TemplateHeading>();
  const withText = new Set<TemplateHeading>();

  children.forEach((node, index) => {
    if (node.type !== 'heading') return;
    const heading = templateHeadingOf(plainText(node));
    if (!heading) return;
    present.add(heading);
    for (let i = index + 1; i < children.length; i += 1) {
      const next = children[i] as RootContent;
      if (next.type === 'heading') {
        if (next.depth <= node.depth || templateHeadingOf(plainText(next))) break;
        continue; // a sub-heading is not text, but its section's content counts
      }
      if (hasContent(next)) {
        withText.add(heading);
        break;
      }
    }
  });

  const sections = TEMPLATE_HEADINGS.map((heading) => ({
    heading,
    present: present.has(heading),
    hasText: withText.has(heading),
  }));
  return { complete: sections.every((s) => s.present && s.hasText), sections };
}
