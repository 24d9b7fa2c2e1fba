/** A stretch of a text, `start` inclusive and `end` exclusive. */
export interface Span {
  start: number;
  end: number;
}

/**
 * Spans in text order with no two overlapping: where one starts inside the one kept before it,
 * `merge` says what stands for both (the wider one, or their union).
 */
export function mergeOverlapping<T extends Span>(
  spans: readonly T[],
  merge: (kept: T, next: T) => T,
): T[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: T[] = [];
  for (const span of sorted) {
    const kept = out[out.length - 1];
    if (kept && span.start < kept.end) out[out.length - 1] = merge(kept, span);
    else out.push(span);
  }
  return out;
}
