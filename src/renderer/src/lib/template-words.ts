import type {
  ImportTemplatesResult,
  TemplateRedaction,
  TemplateView,
} from '@shared/bridge/report-file-views';
import { redactionMark } from '@shared/evidence/redaction-mark';

/** A list of names in words: "a.jpg", "a.jpg and b.txt", "a.jpg, b.txt and c.har". */
function names(list: readonly string[]): string {
  const quoted = list.map((n) => `“${n}”`);
  return quoted.length <= 1
    ? (quoted[0] ?? '')
    : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1) ?? ''}`;
}

/**
 * The credentials taken out of a template, in words, each with the mark that stands in its place:
 * "[REDACTED:jwt] for the JSON Web Token on line 5".
 */
export function redactedWords(redacted: readonly TemplateRedaction[]): string {
  const each = redacted.map((r) => `${redactionMark(r.kind)} for the ${r.label} on line ${r.line}`);
  return each.length <= 1
    ? (each[0] ?? '')
    : `${each.slice(0, -1).join(', ')} and ${each.at(-1) ?? ''}`;
}

/**
 * What saving a template did, said whole: the files whose links it left out are named, since the
 * researcher attaches them to each new report, and so are the credentials it replaced.
 */
export function savedTemplateText(saved: TemplateView): string {
  const leftOut = saved.leftOut ?? [];
  const redacted = saved.redacted ?? [];
  const parts = [`Saved template “${saved.name}”`];
  if (leftOut.length > 0) {
    parts.push(
      ` without the link${leftOut.length === 1 ? '' : 's'} to ${names(leftOut)}: a template keeps text, not files. Attach the file${leftOut.length === 1 ? '' : 's'} to each new report`,
    );
  }
  if (redacted.length > 0) {
    parts.push(
      `. It holds ${redactedWords(redacted)}: a template is reused and shared, so no live credential stays in it`,
    );
  }
  return `${parts.join('')}.`;
}

/** What importing templates did, with the credentials each file had taken out. */
export function importedTemplatesText(created: ImportTemplatesResult['created']): string {
  const cleaned = created.filter((c) => (c.redacted ?? []).length > 0);
  const head = `Imported ${created.length} template${created.length === 1 ? '' : 's'}`;
  if (cleaned.length === 0) return `${head}.`;
  return `${head}. Credentials were replaced: ${cleaned
    .map((c) => `${c.file}: ${redactedWords(c.redacted ?? [])}`)
    .join('; ')}.`;
}
