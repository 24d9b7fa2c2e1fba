/**
 * A process that does nothing but run a 1 ms timer, started beside the benchmark: the stalls the
 * machine itself causes (other processes on the same cores), measured over the same spans as
 * main's. When main stalls as long as the witness, the machine stalled, not main's work.
 * Asked `{ id, from, to }` (epoch ms), it answers the longest gap that ended in that span and
 * every gap over 2 ms that overlaps it.
 */
const now = (): number => performance.timeOrigin + performance.now();
const gaps: { at: number; gap: number }[] = [];
let last = now();
setInterval(() => {
  const at = now();
  const gap = at - last;
  last = at;
  if (gap > 2) gaps.push({ at, gap });
  if (gaps.length > 200_000) gaps.splice(0, 100_000);
}, 1);

interface Ask {
  id: number;
  from: number;
  to: number;
}

process.on('message', (raw) => {
  const { id, from, to } = raw as Ask;
  let longest = 1;
  const inSpan: { end: number; gap: number }[] = [];
  for (const { at, gap } of gaps) {
    // Every gap that overlaps the span (to subtract from main's), the longest of those that end in it.
    if (at >= from && at - gap <= to) inSpan.push({ end: at, gap });
    if (at >= from && at <= to + gap && gap > longest) longest = gap;
  }
  process.send?.({ id, longest, gaps: inSpan });
});
process.on('disconnect', () => process.exit(0));
