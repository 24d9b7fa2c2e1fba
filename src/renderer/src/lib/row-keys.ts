/**
 * React keys for the rows of a virtual list that recycle: a row that stays in view keeps its key
 * (its nodes, its focus, its place when the list reorders), and the key of a row that scrolled out
 * goes to one that scrolled in, so React updates that row's nodes instead of making new ones.
 * Dragging through 100,000 reports with a new key per report had twice the slow frames (major
 * garbage collections of the nodes thrown away).
 */

/**
 * The key of each row shown, by what it shows (`shown`: a report's id, or a placeholder's name;
 * unique). `previous` is the last render's answer. The row `held` (the one with the keyboard
 * focus) gives its key to nobody when it leaves: its nodes go, and the focus with them, rather
 * than staying on a node that then shows another report.
 */
export function recycledKeys(
  previous: ReadonlyMap<string, number>,
  shown: readonly string[],
  held: string | null = null,
): Map<string, number> {
  const inView = new Set(shown);
  const free: number[] = [];
  for (const [row, key] of previous) if (!inView.has(row) && row !== held) free.push(key);
  // A new key is the smallest the last render did not use: keys stay as few as the rows shown.
  const used = new Set(previous.values());
  let fresh = 0;
  const newKey = (): number => {
    while (used.has(fresh)) fresh++;
    return fresh++;
  };
  const next = new Map<string, number>();
  // Handed on in the order the rows stood: a jump past every row shown (a drag of the scroll bar)
  // keeps the keys' order, and React moves no node.
  let handed = 0;
  for (const row of shown) next.set(row, previous.get(row) ?? free[handed++] ?? newKey());
  return next;
}
