import { useMemo } from 'react';
import type { FileLinkTarget } from '../../../shared/rules/file-links';
import { bridge } from '../bridge';
import { reportError } from '../stores/notices';
import { renderMarkdown } from './markdown/render-markdown';

interface MarkdownProps {
  source: string;
  headingOffset?: number;
  /** When given, links to files of this report become "Download" buttons. */
  onDownload?: (target: FileLinkTarget, label: string) => void;
  className?: string;
}

function openExternal(href: string): void {
  bridge.openExternal(href).catch(reportError);
}

/** Hostile Markdown, rendered sanitized (see render-markdown.ts). */
export function Markdown({ source, headingOffset, onDownload, className }: MarkdownProps) {
  const content = useMemo(
    () =>
      renderMarkdown(source, {
        headingOffset: headingOffset ?? 0,
        openExternal,
        ...(onDownload ? { downloadFile: (target, label) => onDownload(target, label) } : {}),
      }),
    [source, headingOffset, onDownload],
  );
  return <div className={`markdown ${className ?? ''}`}>{content}</div>;
}
