import { useMemo } from 'react';
import type { FileLinkTarget } from '@shared/rules/file-links';
import { EvidenceImage } from './EvidenceImage';
import { requestExternal } from '../stores/external-link';
import { renderMarkdown } from './markdown/render-markdown';
import { otherReportImageText } from '../lib/foreign-links';

interface MarkdownProps {
  source: string;
  headingOffset?: number;
  /** When given, links to files of this report become "Download" buttons. */
  onDownload?: (target: FileLinkTarget, label: string) => void;
  /**
   * Images of this report's files show inline, from the app's own checked copies; another
   * report's file says it is one.
   */
  imagesOf?: string;
  className?: string;
}

/** Links in someone else's Markdown ask before they leave the app (with the whole address). */
function openExternal(href: string): void {
  requestExternal(href);
}

/** Hostile Markdown, rendered sanitized (see render-markdown.ts). */
export function Markdown({
  source,
  headingOffset,
  onDownload,
  imagesOf,
  className,
}: MarkdownProps) {
  const content = useMemo(
    () =>
      renderMarkdown(source, {
        headingOffset: headingOffset ?? 0,
        openExternal,
        ...(onDownload ? { downloadFile: (target, label) => onDownload(target, label) } : {}),
        ...(imagesOf
          ? {
              fileImage: (target, alt) =>
                target.reportId === imagesOf ? (
                  <EvidenceImage reportId={imagesOf} fileId={target.fileId} alt={alt} />
                ) : null,
              // Another report's file (a paste from another draft) is not this report's picture.
              fileImageText: (target, name) =>
                target.reportId === imagesOf ? undefined : otherReportImageText(name),
            }
          : {}),
      }),
    [source, headingOffset, onDownload, imagesOf],
  );
  return <div className={`markdown ${className ?? ''}`}>{content}</div>;
}
