/**
 * The CVSS 3.1 qualitative severity of a base score. Apart from cvss.ts, so that naming a stored
 * score (the reports list) does not load the scoring library.
 */
export type CvssSeverity = 'none' | 'low' | 'medium' | 'high' | 'critical';

/** Qualitative severity rating scale (specification section 5). */
export function cvssSeverity(score: number): CvssSeverity {
  if (!(score > 0)) return 'none';
  if (score < 4) return 'low';
  if (score < 7) return 'medium';
  if (score < 9) return 'high';
  return 'critical';
}
