import type { DraftContent, DraftField } from './views';

/** The editable fields of a draft, in the API's order. */
export const DRAFT_FIELDS = [
  'title',
  'asset',
  'description',
  'cvss_vector',
] as const satisfies readonly DraftField[];

/** Whether two contents are the same, field by field (a missing CVSS vector is empty). */
export function sameContent(a: DraftContent, b: DraftContent): boolean {
  return DRAFT_FIELDS.every((field) => (a[field] ?? '') === (b[field] ?? ''));
}
