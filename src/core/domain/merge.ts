/**
 * Three-way merge of a draft's content after `409 revision_conflict`.
 *
 * - base:   the content the server last acknowledged (the merge base);
 * - ours:   the local content (what the user typed since);
 * - theirs: `current` from the conflict body (the server's content now).
 *
 * Per field: a side that did not change takes the other side; both sides changed the same way →
 * that value; both changed differently → for `description` a line-level diff3 merge
 * (node-diff3), kept only when it has no conflicting region; otherwise the field is a conflict.
 * While `conflicts` is not empty the caller sends nothing; `resolveConflicts` applies the user's
 * choices. After a clean merge the caller resends `merged` with `current.revision`, and `theirs`
 * becomes the new base once the server acknowledges.
 */
import { diff3Merge } from 'node-diff3';
import type {
  ConflictChoice,
  DraftContent,
  DraftField,
  FieldConflict,
} from '../../shared/bridge/views';
import { DRAFT_FIELDS, sameContent } from '../../shared/bridge/draft-content';

export type { ConflictChoice, DraftContent, DraftField, FieldConflict };

export { DRAFT_FIELDS, sameContent };

export interface MergeResult {
  /** The merged content; a conflicting field holds `ours` until it is resolved. */
  merged: DraftContent;
  conflicts: FieldConflict[];
}

export type ConflictChoices = Partial<Record<DraftField, ConflictChoice>>;

/** Splits text into lines that keep their line endings, so joining them gives the text back. */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let at = 0;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    if (nl < 0) {
      lines.push(text.slice(at));
      break;
    }
    lines.push(text.slice(at, nl + 1));
    at = nl + 1;
  }
  return lines;
}

/** Line-level diff3 merge; null when a region conflicts. */
export function mergeLines(base: string, ours: string, theirs: string): string | null {
  const regions = diff3Merge(splitLines(ours), splitLines(base), splitLines(theirs), {
    excludeFalseConflicts: true,
  });
  let out = '';
  for (const region of regions) {
    if (region.conflict) return null;
    out += (region.ok ?? []).join('');
  }
  return out;
}

function mergeField(
  field: DraftField,
  base: string | null,
  ours: string,
  theirs: string,
): { value: string; conflict: boolean } {
  if (ours === theirs) return { value: ours, conflict: false };
  if (base !== null) {
    if (ours === base) return { value: theirs, conflict: false };
    if (theirs === base) return { value: ours, conflict: false };
    if (field === 'description') {
      const merged = mergeLines(base, ours, theirs);
      if (merged !== null) return { value: merged, conflict: false };
    }
  }
  return { value: ours, conflict: true };
}

/**
 * Merges the content fields. `base` null means no common ancestor is known (every field that
 * differs between the sides is then a conflict).
 */
export function mergeDraft(
  base: DraftContent | null,
  ours: DraftContent,
  theirs: DraftContent,
): MergeResult {
  const merged = { ...ours };
  const conflicts: FieldConflict[] = [];
  for (const field of DRAFT_FIELDS) {
    const b = base ? (base[field] ?? '') : null;
    const o = ours[field] ?? '';
    const t = theirs[field] ?? '';
    const { value, conflict } = mergeField(field, b, o, t);
    merged[field] = value;
    if (conflict) conflicts.push({ field, base: b ?? '', ours: o, theirs: t });
  }
  return { merged, conflicts };
}

function chosen(conflict: FieldConflict, choice: ConflictChoice): string {
  if (choice === 'ours') return conflict.ours;
  if (choice === 'theirs') return conflict.theirs;
  return choice.custom;
}

/** Applies choices; conflicts without a choice stay. Does not change `result`. */
export function resolveConflicts(result: MergeResult, choices: ConflictChoices): MergeResult {
  const merged = { ...result.merged };
  const conflicts: FieldConflict[] = [];
  for (const conflict of result.conflicts) {
    const choice = choices[conflict.field];
    if (choice === undefined) {
      conflicts.push(conflict);
      continue;
    }
    merged[conflict.field] = chosen(conflict, choice);
  }
  return { merged, conflicts };
}

/** The content fields of a report (or anything shaped like one). */
export function contentOf(report: DraftContent): DraftContent {
  return {
    title: report.title,
    asset: report.asset,
    description: report.description,
    cvss_vector: report.cvss_vector ?? '',
  };
}
