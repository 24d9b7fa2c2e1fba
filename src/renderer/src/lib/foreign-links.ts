import { findFileLinks } from '@shared/rules/file-links';

/**
 * The files a description links that belong to another report (a template or a paste from another
 * draft): the server copy is sent without those links (the engine's outbox leaves them out, the
 * server would refuse them), so the save line must say so rather than "Saved and sent". By name
 * (the link's words or the image's alt text), each once.
 */
export function otherReportsFiles(markdown: string, reportId: string): string[] {
  if (!markdown.includes('/files/')) return [];
  const found: string[] = [];
  for (const link of findFileLinks(markdown)) {
    if (link.reportId === reportId) continue;
    const name = link.text.trim() || link.fileId;
    if (!found.includes(name)) found.push(name);
  }
  return found;
}

/**
 * What an image of another report's file shows instead of the picture (the editor, the printed
 * report): only the report's own files show as pictures, and the server's copy leaves it out.
 */
export function otherReportImageText(name: string): string {
  return `[image: ${name} — a file of another report, not sent]`;
}
