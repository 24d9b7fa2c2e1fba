import { useMemo } from 'react';
import type { FileLinkTarget } from '../../../shared/rules/file-links';
import { bridge } from '../bridge';
import { EvidenceImage } from './EvidenceImage';
import { reportError } from '../stores/notices';
import { renderMarkdown } from './markdown/render-markdown';

interface MarkdownProps {
  source: string;
  headingOffset?: number;
  /** When given, links to files of this report become "Download" buttons. */
  onDownload?: (target: FileLinkTarget, label: string) => void;
  /** Images of this report's files show inline, from the app's own checked copies. */
  imagesOf?: string;
  className?: string;
}

function openExternal(href: string): void {
  bridge.openExternal(href).catch(reportError);
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
            }
          : {}),
      }),
    [source, headingOffset, onDownload, imagesOf],
  );
  return <div className={`markdown ${className ?? ''}`}>{content}</div>;
}
