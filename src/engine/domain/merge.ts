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
 * While `conflicts` is not empty the caller sends nothing; `applyChoices` applies the user's
 * choices. After a clean merge the caller resends `merged` with `current.revision`, and `theirs`
 * becomes the new base once the server acknowledges.
 */
import { diff3Merge } from 'node-diff3';
import type { ConflictChoice, DraftContent, DraftField, FieldConflict } from '@shared/bridge/views';
import { DRAFT_FIELDS, type DraftConflict } from '@shared/bridge/draft-content';

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

/** The conflicts of a merge as a draft keeps them, field by field. */
export function conflictOf(conflicts: readonly FieldConflict[]): DraftConflict {
  const recorded: DraftConflict = {};
  for (const { field, base, ours, theirs } of conflicts) recorded[field] = { base, ours, theirs };
  return recorded;
}

/**
 * Applies the user's choices to a draft's content: each chosen field takes `ours`, `theirs` or a
 * custom text; a conflict without a choice stays. Does not change its arguments.
 */
export function applyChoices(
  content: DraftContent,
  conflict: DraftConflict,
  choices: ConflictChoices,
): { content: DraftContent; remaining: DraftConflict } {
  const next = { ...content };
  const remaining: DraftConflict = {};
  for (const field of DRAFT_FIELDS) {
    const sides = conflict[field];
    if (!sides) continue;
    const choice = choices[field];
    if (choice === undefined) remaining[field] = sides;
    else
      next[field] =
        choice === 'ours' ? sides.ours : choice === 'theirs' ? sides.theirs : choice.custom;
  }
  return { content: next, remaining };
}
