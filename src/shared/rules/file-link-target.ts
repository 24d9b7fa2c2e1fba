/**
 * The report and file a link target `/reports/<report_id>/files/<file_id>` points to (the rules of
 * file-links.ts). Apart from the Markdown parser, so that checking one address (the renderer's
 * link classifier, on its first screen) does not load the parser.
 */
export interface FileLinkTarget {
  reportId: string;
  fileId: string;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The report and file a link target points to, or null when it is not a file link. */
export function parseFileLinkTarget(url: string): FileLinkTarget | null {
  let path = url;
  const cut = [path.indexOf('?'), path.indexOf('#')].filter((i) => i >= 0);
  if (cut.length > 0) path = path.slice(0, Math.min(...cut));
  const parts = path.split('/');
  if (parts.length !== 5) return null;
  const [empty, reports, reportId, files, fileId] = parts as [
    string,
    string,
    string,
    string,
    string,
  ];
  if (empty !== '' || reports !== 'reports' || files !== 'files') return null;
  if (reportId === '' || fileId === '') return null;
  return { reportId: decodeSegment(reportId), fileId: decodeSegment(fileId) };
}
