/**
 * A process's memory as the system counts it (resident set, `/proc/<pid>/status`), sampled while
 * something runs: what a researcher's machine gives the process, the V8 heap and SQLite's pages
 * and the DOM alike. Linux only, as the benches are.
 */
import { readFileSync } from 'node:fs';

const MB = 1024 * 1024;

/** The resident set of `pid` in MB (NaN once it is gone). */
export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+) kB/mu.exec(status)?.[1];
    return kb ? (Number(kb) * 1024) / MB : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

export interface Sampled<T> {
  value: T;
  /** The largest resident set seen, MB. */
  peak: number;
  /** The resident set when `fn` ended, MB. */
  end: number;
}

/** Runs `fn`, sampling the resident set of the largest process `pids()` names every `everyMs`. */
export async function sampleRss<T>(
  pids: () => number[],
  fn: () => Promise<T>,
  everyMs = 50,
): Promise<Sampled<T>> {
  // The largest of them: the one process a bound is about (the app's renderer among Chromium's).
  const largest = (): number =>
    pids()
      .map(rssMb)
      .filter((mb) => !Number.isNaN(mb))
      .reduce((max, mb) => Math.max(max, mb), 0);
  let peak = largest();
  const timer = setInterval(() => (peak = Math.max(peak, largest())), everyMs);
  try {
    const value = await fn();
    const end = largest();
    return { value, peak: Math.max(peak, end), end };
  } finally {
    clearInterval(timer);
  }
}
