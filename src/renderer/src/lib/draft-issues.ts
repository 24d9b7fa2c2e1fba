/**
 * Field errors of a draft: the engine's checks (DraftView.issues) plus live local ones (lengths,
 * the CVSS vector), one list per field, without repeats. Pure.
 */
import { LIMITS } from '@shared/api';
import type { DraftField } from '@shared/bridge/views';
import { parseCvss31 } from '@shared/rules/cvss';
import { countOf } from '@shared/words/count';

export interface LiveFields {
  title: string;
  asset: string;
  cvss_vector: string;
  descriptionLength: number;
}

function fieldOf(issueField: string): DraftField | null {
  const f = issueField.toLowerCase();
  if (f.includes('title')) return 'title';
  if (f.includes('asset')) return 'asset';
  if (f.includes('description')) return 'description';
  if (f.includes('cvss')) return 'cvss_vector';
  return null;
}

export function fieldIssues(
  engineIssues: readonly { field: string; message: string }[],
  live: LiveFields,
): Record<DraftField, string[]> {
  const out: Record<DraftField, string[]> = {
    title: [],
    asset: [],
    description: [],
    cvss_vector: [],
  };
  const add = (field: DraftField, message: string): void => {
    if (!out[field].includes(message)) out[field].push(message);
  };
  const local: Record<DraftField, boolean> = {
    title: false,
    asset: false,
    description: false,
    cvss_vector: false,
  };
  if (live.title.length > LIMITS.titleChars) {
    add(
      'title',
      `The title is ${countOf(live.title.length - LIMITS.titleChars, 'character')} too long.`,
    );
    local.title = true;
  }
  if (live.asset.length > LIMITS.assetChars) {
    add(
      'asset',
      `The asset is ${countOf(live.asset.length - LIMITS.assetChars, 'character')} too long.`,
    );
    local.asset = true;
  }
  if (live.descriptionLength > LIMITS.descriptionChars) {
    add(
      'description',
      `The description is ${countOf(live.descriptionLength - LIMITS.descriptionChars, 'character')} too long.`,
    );
    local.description = true;
  }
  if (live.cvss_vector.length > LIMITS.cvssVectorChars) {
    add('cvss_vector', `The vector is longer than ${LIMITS.cvssVectorChars} characters.`);
    local.cvss_vector = true;
  } else if (live.cvss_vector.trim() !== '') {
    const parsed = parseCvss31(live.cvss_vector);
    if (!parsed.ok) {
      add('cvss_vector', `Not a valid CVSS 3.1 base vector: ${parsed.error}.`);
      local.cvss_vector = true;
    }
  }
  // The engine checked the last saved content; a live check of the same field is fresher.
  for (const issue of engineIssues) {
    const field = fieldOf(issue.field);
    if (field && !local[field] && !(field === 'cvss_vector' && live.cvss_vector.trim() === '')) {
      add(field, issue.message);
    }
  }
  return out;
}
