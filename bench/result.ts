/** One figure printed by `npm run bench`. Ratios compare against a baseline measured in the same run. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  ratio?: number;
  target?: string;
  ok?: boolean;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export function formatResults(suite: string, results: readonly BenchResult[]): string {
  const lines = [`## ${suite}`];
  for (const r of results) {
    const value = `${round(r.value)} ${r.unit}`;
    const ratio =
      r.ratio !== undefined
        ? `  ratio ${round(r.ratio)}x vs baseline ${round(r.baseline ?? 0)}`
        : '';
    const target = r.target ? `  target ${r.target}: ${r.ok ? 'met' : 'MISSED'}` : '';
    lines.push(`- ${r.name}: ${value}${ratio}${target}`);
  }
  return lines.join('\n');
}

function round(n: number): string {
  return Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toPrecision(3);
}
