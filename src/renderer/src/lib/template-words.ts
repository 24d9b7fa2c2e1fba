import type { TemplateView } from '@shared/bridge/report-file-views';

/** A list of names in words: "a.jpg", "a.jpg and b.txt", "a.jpg, b.txt and c.har". */
function names(list: readonly string[]): string {
  const quoted = list.map((n) => `“${n}”`);
  return quoted.length <= 1
    ? (quoted[0] ?? '')
    : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1) ?? ''}`;
}

/**
 * What saving a template did, said whole: the files whose links it left out are named, since the
 * researcher attaches them to each new report.
 */
export function savedTemplateText(saved: TemplateView): string {
  const leftOut = saved.leftOut ?? [];
  if (leftOut.length === 0) return `Saved template “${saved.name}”.`;
  return `Saved template “${saved.name}” without the link${leftOut.length === 1 ? '' : 's'} to ${names(leftOut)}: a template keeps text, not files. Attach the file${leftOut.length === 1 ? '' : 's'} to each new report.`;
}
