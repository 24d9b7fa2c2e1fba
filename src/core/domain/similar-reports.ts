/**
 * The duplicate hint (issue 13, part 4): which of the researcher's own reports for the same
 * program look like the draft. Words come from the title and the asset; the engine asks the
 * full-text index which reports hold each word, and this module scores the answers.
 */
import { extractTargets, type ScopeTarget } from '../../shared/scope/scope';

const STOP = new Set(
  'the and for with from into that this via when then than are was were has have not can any all out our your their its of on in to at by an or as is it be a'.split(
    ' ',
  ),
);

/** The words worth matching: 3+ letters or digits, not filler, at most 12, longest first. */
export function significantWords(text: string): string[] {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).filter((w) => !STOP.has(w));
  return [...new Set(words)].sort((a, b) => b.length - a.length || a.localeCompare(b)).slice(0, 12);
}

function targetKey(t: ScopeTarget): string {
  switch (t.type) {
    case 'host':
    case 'url':
      return `host:${t.host}`;
    case 'wildcard':
      return `host:*.${t.domain}`;
    case 'pattern':
      return `host:${t.pattern}`;
    case 'ip':
      return `ip:${t.address}`;
    case 'cidr':
      return `cidr:${t.address}/${t.prefix}`;
    case 'app':
      return `app:${t.id}`;
  }
}

/** Two assets are the same when they name a common host, IP or app, or read the same. */
export function sameAsset(a: string, b: string): boolean {
  const norm = (s: string): string => s.trim().toLowerCase().replace(/\/+$/, '');
  if (norm(a) !== '' && norm(a) === norm(b)) return true;
  const keys = new Set(extractTargets(a).map(targetKey));
  return extractTargets(b).some((t) => keys.has(targetKey(t)));
}

export interface Candidate {
  id: string;
  asset: string;
  /** How many of the draft's title words the full-text index found in this report. */
  titleWordsMatched: number;
}

export interface Similarity {
  id: string;
  reasons: string[];
  score: number;
}

/** Close: the same asset, or at least half of the title's words (and two at least). */
export function similarity(
  draft: { asset: string; titleWords: number },
  candidate: Candidate,
): Similarity | null {
  const reasons: string[] = [];
  let score = 0;
  if (draft.asset.trim() && sameAsset(draft.asset, candidate.asset)) {
    reasons.push('same asset');
    score += 1;
  }
  const needed = Math.max(2, Math.ceil(draft.titleWords / 2));
  if (draft.titleWords > 0 && candidate.titleWordsMatched >= Math.min(needed, draft.titleWords)) {
    reasons.push(`similar title (${candidate.titleWordsMatched} of ${draft.titleWords} words)`);
    score += candidate.titleWordsMatched / draft.titleWords;
  }
  return reasons.length > 0 ? { id: candidate.id, reasons, score } : null;
}
