import { useLayoutEffect, useMemo, useRef } from 'react';
import { createPortal } from 'react-dom';
import { parseCvss31 } from '@shared/rules/cvss';
import type { ReportDetailView } from '@shared/bridge/views';
import { findFileLinks } from '@shared/rules/file-links';
import { authorName } from '@shared/words/authors';
import { Markdown } from '../../../components/Markdown';
import { evidenceImageUrl } from '../../../lib/evidence-images';
import { formatTime, humanize, statusLabel } from '../../../lib/format';
import { holdPrintFor } from '../../../stores/printing';

/**
 * The report as a printed document ("Save as PDF…", or the OS print dialog): title, program,
 * status, asset, CVSS, dates, the description (the same sanitized Markdown as on screen),
 * evidence file names and the thread. It sits outside the app's root so that print media shows
 * only it (styles/workspace.css, `@media print`); on screen it is never shown.
 */
export function PrintableReport({ detail }: { detail: ReportDetailView }) {
  const report = detail.report;
  const draft = detail.draft;
  // A draft prints what the researcher is writing; a submitted report what the service holds.
  const content =
    draft && (!report || report.status === 'draft')
      ? draft.content
      : {
          title: report?.title ?? '',
          asset: report?.asset ?? '',
          description: report?.description ?? '',
          cvss_vector: report?.cvss_vector ?? '',
        };
  const cvss = content.cvss_vector ? parseCvss31(content.cvss_vector) : null;
  const root = useRef<HTMLElement>(null);
  // A link whose text is its address (a bare URL) prints once: only the others add `<address>`.
  useLayoutEffect(() => {
    for (const a of root.current?.querySelectorAll('a[href]') ?? []) {
      a.toggleAttribute('data-bare', a.textContent?.trim() === a.getAttribute('href'));
    }
  });
  // The pictures of the description print as pictures: this report's own files, from the local
  // cleaned copies (metadata removed), as `data:` URLs (the CSP's one image source besides the
  // bundle). The print waits for them (stores/printing.ts).
  const imageIds = useMemo(
    () =>
      content.description.includes('/files/')
        ? findFileLinks(content.description)
            .filter((l) => l.image && l.reportId === detail.id)
            .map((l) => l.fileId)
        : [],
    [content.description, detail.id],
  );
  useLayoutEffect(() => {
    if (imageIds.length > 0) {
      holdPrintFor(Promise.all(imageIds.map((id) => evidenceImageUrl(detail.id, id))));
    }
  }, [imageIds, detail.id]);
  const files = detail.evidence.filter((e) => !e.forMessage).map((e) => e.name);
  const rows: [string, string][] = [
    ['Program', report?.program_name ?? draft?.programId ?? ''],
    ['Status', report ? statusLabel(report.status, report.display_status) : 'Draft'],
    ['Asset', content.asset],
    [
      'CVSS',
      cvss?.ok
        ? `${cvss.baseScore.toFixed(1)} (${humanize(cvss.severity)}) ${cvss.vector}`
        : content.cvss_vector,
    ],
    ['Created', report?.created_at ? formatTime(report.created_at) : ''],
    ['Submitted', report?.submitted_at ? formatTime(report.submitted_at) : ''],
    ['Updated', report?.updated_at ? formatTime(report.updated_at) : ''],
    ['Report id', detail.id],
  ];
  return createPortal(
    <article className="print-report" aria-hidden="true" ref={root}>
      <h1>{content.title || '(untitled)'}</h1>
      <dl>
        {rows
          .filter(([, value]) => value !== '')
          .map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
      </dl>
      <h2>Description</h2>
      <Markdown source={content.description} headingOffset={1} imagesOf={detail.id} />
      {files.length > 0 && (
        <>
          <h2>Evidence files</h2>
          <ul>
            {files.map((name, i) => (
              <li key={i}>{name}</li>
            ))}
          </ul>
        </>
      )}
      {detail.messages.length > 0 && (
        <>
          <h2>Thread</h2>
          {detail.messages.map((m) => (
            <section key={m.id} className="print-message">
              <h3>
                {authorName(m.author)} · {formatTime(m.at)}
              </h3>
              <Markdown source={m.body} headingOffset={3} />
              {m.attachments.length > 0 && (
                <p>Files: {m.attachments.map((f) => f.name).join(', ')}</p>
              )}
            </section>
          ))}
        </>
      )}
    </article>,
    document.body,
  );
}
