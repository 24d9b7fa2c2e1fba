/**
 * Which link targets hostile Markdown may keep. Pure: used by the Markdown renderer, the Milkdown
 * link guard and the external-link opener, and tested with an XSS corpus.
 *
 * Allowed: absolute http, https and mailto URLs, and the report file links
 * `/reports/<report_id>/files/<file_id>` (shown as "Download" actions, never navigated to).
 * Everything else (javascript:, data:, vbscript:, file:, blob:, relative paths, protocol-relative
 * `//host`, URLs with control characters) is dropped.
 */
import { parseFileLinkTarget, type FileLinkTarget } from '@shared/rules/file-link-target';

export type SafeLink =
  | { kind: 'external'; href: string }
  | { kind: 'file'; target: FileLinkTarget }
  | { kind: 'blocked'; reason: string };

const ALLOWED_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);
// C0 controls, DEL, and invisible characters that browsers strip before parsing a scheme.
// eslint-disable-next-line no-control-regex
const FORBIDDEN_CHARS = /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028\u2029\ufeff]/u;

export function classifyLink(raw: string | null | undefined): SafeLink {
  if (typeof raw !== 'string') return { kind: 'blocked', reason: 'no address' };
  const url = raw.trim();
  if (url.length === 0) return { kind: 'blocked', reason: 'no address' };
  if (FORBIDDEN_CHARS.test(url)) return { kind: 'blocked', reason: 'control characters' };
  if (url.startsWith('/reports/')) {
    const target = parseFileLinkTarget(url);
    if (target && target.reportId && target.fileId) return { kind: 'file', target };
    return { kind: 'blocked', reason: 'not a file of a report' };
  }
  // Only absolute URLs with an explicit allowed scheme; no relative or protocol-relative ones.
  if (!/^[a-z][a-z0-9+.-]*:/iu.test(url)) return { kind: 'blocked', reason: 'relative address' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { kind: 'blocked', reason: 'not a valid address' };
  }
  if (!ALLOWED_PROTOCOLS.has(parsed.protocol)) {
    return { kind: 'blocked', reason: `${parsed.protocol} links are not allowed` };
  }
  if (parsed.protocol !== 'mailto:' && parsed.hostname === '') {
    return { kind: 'blocked', reason: 'no host' };
  }
  if (parsed.username || parsed.password) {
    return { kind: 'blocked', reason: 'credentials in the address' };
  }
  return { kind: 'external', href: parsed.href };
}

/** The href to keep for an editor link, or '' when the link must be dropped. */
export function sanitizeEditorHref(raw: string | null | undefined): string {
  const link = classifyLink(raw);
  if (link.kind === 'external') return link.href;
  if (link.kind === 'file') return (raw ?? '').trim();
  return '';
}

// eslint-disable-next-line no-control-regex
const IGNORED_IN_SCHEME = /[\u0000-\u0020\u007f-\u00a0\u200b-\u200d\u2028\u2029\ufeff]/gu;

/**
 * Whether an editor link target must go: it names a scheme other than http, https or mailto
 * (javascript:, data:, vbscript:, file:, blob: …), once the characters browsers ignore in a
 * scheme are removed. Relative targets and file links stay: the editor never navigates them.
 */
export function isDangerousEditorHref(raw: string | null | undefined): boolean {
  if (typeof raw !== 'string') return false;
  const squeezed = raw.replace(IGNORED_IN_SCHEME, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/iu.exec(squeezed)?.[1]?.toLowerCase();
  if (!scheme) return false;
  return !['http', 'https', 'mailto'].includes(scheme);
}
