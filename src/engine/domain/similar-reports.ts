/**
 * The duplicate hint: which of the researcher's own reports for the same
 * program look like the draft. Words come from the title and the asset; the engine asks the
 * full-text index which reports hold each word, and this module scores the answers.
 */
import { stemmer } from 'stemmer';
import { extractTargets, type ScopeTarget } from '@shared/scope/scope';

const STOP = new Set(
  'the and for with from into that this via when then than are was were has have not can any all out our your their its of on in to at by an or as is it be a'.split(
    ' ',
  ),
);

/**
 * Parts of URLs and host names that say nothing about the bug: schemes, `www`, common top-level
 * and second-level domains, file extensions. Two reports on `shop.example.com` share "com".
 */
const URL_STOP = new Set(
  'http https www com net org io co uk de fr nl eu us gov edu html htm php asp aspx jsp json xml'.split(
    ' ',
  ),
);

/**
 * Words every kind of report title uses and that say nothing about which bug it is: "Buffer
 * overflow vulnerability in X leads to potential RCE" and "… in Y allows …" share only filler.
 */
const REPORT_STOP = new Set(
  'vulnerability vulnerabilities vulnerable report security issue leads leading lead allows allow allowing allowed potential possible due using used title analysis'.split(
    ' ',
  ),
);

/** A CVE id is one word: two reports on CVE-2026-3783 share it, two CVEs of 2026 share nothing. */
const WORD_RE = /cve-\d{4}-\d{4,}|[\p{L}\p{N}]{3,}/gu;

/** A word's stem (Porter); numbers and CVE ids are kept whole. */
function stemOf(word: string): string {
  return /^(?:\d|cve-)/.test(word) ? word : stemmer(word);
}

/** The words worth matching: 3+ letters or digits, not filler, at most 12, longest first. */
export function significantWords(text: string): string[] {
  const words = (text.toLowerCase().match(WORD_RE) ?? []).filter(
    (w) => !STOP.has(w) && !URL_STOP.has(w) && !REPORT_STOP.has(w),
  );
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
    case 'range':
      return `range:${t.first}-${t.last}`;
    case 'app':
      return `app:${t.id}`;
    case 'bucket':
      return `bucket:${t.name}`;
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
  title: string;
  asset: string;
}

export interface Similarity {
  id: string;
  /** Why it is listed: `same asset`, `shares "idor", "orders"`. */
  reasons: string[];
  /** The share of the draft's title weight (BM25) the candidate's title holds, 0 to 1. */
  score: number;
}

const K1 = 1.2;
const B = 0.75;
/** Shares of the title's weight that list a report (alone, or with the same asset). */
const LISTED = 0.35;
const LISTED_SAME_ASSET = 0.2;

/**
 * The draft's own reports ranked by BM25 over their titles (idf taken over these candidates, so
 * a word every report of the program holds weighs little), as a share of the best possible score.
 * Listed: 35% of the title's weight at least, or 20% with the same asset; the same asset
 * alone is no duplicate (another bug on the same host).
 */
export function rankSimilar(
  draft: { title: string; asset: string },
  candidates: Candidate[],
): Similarity[] {
  // Words compare by their stem ("leak", "leaks", "leaked"); the reason shows the draft's word.
  const shown = new Map<string, string>();
  for (const w of significantWords(draft.title)) if (!shown.has(stemOf(w))) shown.set(stemOf(w), w);
  const query = [...shown.keys()];
  const docs = candidates.map((c) => [...new Set(significantWords(c.title).map(stemOf))]);
  // The draft counts as one of the program's reports: a word only it holds is rare, not absent.
  const corpus = [query, ...docs];
  const n = corpus.length;
  const avg = corpus.reduce((sum, d) => sum + d.length, 0) / n;
  const df = new Map<string, number>();
  for (const d of corpus) for (const w of new Set(d)) df.set(w, (df.get(w) ?? 0) + 1);
  const idf = (w: string): number => {
    const k = df.get(w) ?? 0;
    return Math.log(1 + (n - k + 0.5) / (k + 0.5));
  };
  const bm25 = (doc: string[], word: string): number => {
    if (!doc.includes(word)) return 0;
    return (idf(word) * (K1 + 1)) / (1 + K1 * (1 - B + (B * doc.length) / Math.max(1, avg)));
  };
  // The best a candidate could score: its title holding every query word, at average length.
  const best = query.reduce((sum, w) => sum + (idf(w) * (K1 + 1)) / (1 + K1), 0);
  const out: Similarity[] = [];
  // The same asset says something only when few of the program's reports share it: on a
  // program with one asset (a library, an app) every report has it.
  const sameOf = candidates.map(
    (c) => draft.asset.trim() !== '' && sameAsset(draft.asset, c.asset),
  );
  const distinctive = sameOf.filter(Boolean).length <= Math.max(3, candidates.length / 4);
  candidates.forEach((c, i) => {
    const doc = docs[i] ?? [];
    const shared = query.filter((w) => doc.includes(w));
    const score = best > 0 ? Math.min(1, shared.reduce((s2, w) => s2 + bm25(doc, w), 0) / best) : 0;
    const same = sameOf[i] === true;
    if (score < LISTED && !(same && distinctive && score >= LISTED_SAME_ASSET)) return;
    const reasons = [
      ...(same ? ['same asset'] : []),
      `shares ${shared.map((w) => `"${shown.get(w) ?? w}"`).join(', ')} (${Math.round(score * 100)}% of the title)`,
    ];
    out.push({ id: c.id, reasons, score: score + (same && distinctive ? 0.2 : 0) });
  });
  return out.sort((a, b) => b.score - a.score);
}
