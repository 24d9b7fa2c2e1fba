/** Numbers in words a person reads: "1 report", "2 reports", "12,001 characters". */

/** A whole number with its thousands grouped, as the app writes counts ("12,001"). */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** `n` and the noun in the right number: "1 report", "0 reports", "1,200 reports". */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : plural}`;
}
