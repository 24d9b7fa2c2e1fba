import type { DraftContent, DraftField, FieldSides } from './views';

/** The editable fields of a draft, in the API's order. */
export const DRAFT_FIELDS = [
  'title',
  'asset',
  'description',
  'cvss_vector',
] as const satisfies readonly DraftField[];

/** A draft's conflicting fields as the engine keeps them until the user chooses. */
export type DraftConflict = Partial<Record<DraftField, FieldSides>>;

/** The content fields of a report, a draft or anything shaped like one (a missing CVSS is empty). */
export function contentOf(source: DraftContent): DraftContent {
  return {
    title: source.title,
    asset: source.asset,
    description: source.description,
    cvss_vector: source.cvss_vector ?? '',
  };
}

/** Whether two contents are the same, field by field (a missing CVSS vector is empty). */
export function sameContent(a: DraftContent, b: DraftContent): boolean {
  return DRAFT_FIELDS.every((field) => (a[field] ?? '') === (b[field] ?? ''));
}
