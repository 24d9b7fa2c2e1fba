/** Numbers in words a person reads: "1 report", "2 reports", "12,001 characters". */

/** A whole number with its thousands grouped, as the app writes counts ("12,001"). */
export function formatCount(n: number): string {
  return grouped.format(n);
}
// One formatter: `toLocaleString('en-US')` builds a new one per call (a list of programs with
// their counts took milliseconds to render).
const grouped = new Intl.NumberFormat('en-US');

/** `n` and the noun in the right number: "1 report", "0 reports", "1,200 reports". */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : plural}`;
}
