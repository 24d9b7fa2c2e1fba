import { fork } from 'node:child_process';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { threadClock, type ThreadTimes } from './thread-clock';

/**
 * How long the event loop of this process (the one playing Electron's main) goes without running
 * a 1 ms timer: the longest gap between two ticks is the longest stall, as a window would feel it.
 * The figures of the issue were measured the same way.
 */
export interface Stalls {
  /** The longest gap between two ticks, in ms (1 when nothing stalled). */
  longest: number;
  /** Gaps over one 60 Hz frame (16 ms). */
  overFrame: number;
  /** The longest garbage collection pause of this process in the span, ms (0: none seen). */
  longestGc: number;
  gcKind: 'major' | 'minor' | null;
  /** The span measured, epoch ms (for the witness, witness.ts). */
  from: number;
  to: number;
  /** Gaps over `GAP_MS`: when each ended (epoch ms) and how long it was. */
  gaps: Gap[];
  /**
   * Main's thread in its stalls (Linux; NaN elsewhere): the gap in which it ran longest, and of
   * the longest gap how long it ran and how long it waited for a core, ms. What it ran is main's
   * own work; a wait is the machine's (other processes on the cores).
   */
  busiest: GapParts;
  longestParts: GapParts;
}

export interface GapParts {
  gap: number;
  run: number;
  wait: number;
}

export interface Gap {
  end: number;
  gap: number;
}

/** Gaps shorter than this are the timer's own jitter: not recorded one by one. */
export const GAP_MS = 2;

/**
 * The longest time main stalled while the witness (an idle process on the same machine) did not:
 * each gap of main's minus the parts of it in which the witness was stalled too. A stall both
 * processes saw at once is the machine's (the VM or the kernel held both), not main's work.
 */
export function longestUnshared(main: readonly Gap[], witness: readonly Gap[]): number {
  let longest = 0;
  for (const { end, gap } of main) {
    const start = end - gap;
    let shared = 0;
    // Witness gaps do not overlap one another (they are consecutive intervals of one timer).
    for (const w of witness) {
      const overlap = Math.min(end, w.end) - Math.max(start, w.end - w.gap);
      if (overlap > 0) shared += overlap;
    }
    longest = Math.max(longest, gap - shared);
  }
  return longest;
}

const epoch = (): number => performance.timeOrigin + performance.now();
const NO_PARTS: GapParts = { gap: 0, run: Number.NaN, wait: Number.NaN };

export class StallMonitor {
  #timer: NodeJS.Timeout | null = null;
  #last = 0;
  #longest = 0;
  #overFrame = 0;
  #longestGc = 0;
  #gcKind: 'major' | 'minor' | null = null;
  #gc: PerformanceObserver | null = null;
  #gaps: Gap[] = [];
  #clock = threadClock();
  #times: ThreadTimes = { run: 0, wait: 0 };
  #busiest = NO_PARTS;
  #longestParts = NO_PARTS;

  start(): void {
    if (this.#timer) return;
    this.#gc = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.duration <= this.#longestGc) continue;
        this.#longestGc = entry.duration;
        const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
        this.#gcKind = kind === constants.NODE_PERFORMANCE_GC_MAJOR ? 'major' : 'minor';
      }
    });
    this.#gc.observe({ entryTypes: ['gc'] });
    this.#last = performance.now();
    this.#readTimes();
    this.#timer = setInterval(() => {
      const now = performance.now();
      const gap = now - this.#last;
      this.#last = now;
      const parts = this.#readTimes(gap);
      if (parts && !(parts.run <= this.#busiest.run)) this.#busiest = parts;
      if (gap > this.#longest) {
        this.#longest = gap;
        this.#longestParts = parts ?? NO_PARTS;
      }
      if (gap > 16) this.#overFrame++;
      if (gap > GAP_MS) this.#gaps.push({ end: performance.timeOrigin + now, gap });
    }, 1);
  }

  /** Main's thread times since the last reading, as the parts of a gap of `gap` ms. */
  #readTimes(gap = 0): GapParts | null {
    if (!this.#clock) return null;
    const times = this.#clock();
    const parts = {
      gap,
      run: times.run - this.#times.run,
      wait: times.wait - this.#times.wait,
    };
    this.#times = times;
    return parts;
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    this.#gc?.disconnect();
    this.#gc = null;
  }

  /** Runs `fn` with the timer running; the stalls are those of `fn`'s span only. */
  async during<T>(fn: () => Promise<T> | T): Promise<{ value: T; stalls: Stalls }> {
    this.start();
    // Let the timer tick once, so the span starts from a fresh reading.
    await new Promise((resolve) => setTimeout(resolve, 2));
    this.#longest = 0;
    this.#overFrame = 0;
    this.#longestGc = 0;
    this.#gcKind = null;
    this.#gaps = [];
    this.#busiest = NO_PARTS;
    this.#longestParts = NO_PARTS;
    this.#last = performance.now();
    this.#readTimes();
    const from = epoch();
    const value = await fn();
    // The gap that ends after `fn` returned belongs to it too.
    await new Promise((resolve) => setTimeout(resolve, 2));
    const stalls = {
      longest: this.#longest,
      overFrame: this.#overFrame,
      longestGc: this.#longestGc,
      gcKind: this.#gcKind,
      from,
      to: epoch(),
      gaps: this.#gaps,
      busiest: this.#busiest,
      longestParts: this.#longestParts,
    };
    this.stop();
    return { value, stalls };
  }
}

/** The same span with nothing to do: what the machine alone costs the timer (the baseline). */
export async function idleStalls(ms: number): Promise<Stalls> {
  const monitor = new StallMonitor();
  const { stalls } = await monitor.during(() => new Promise((resolve) => setTimeout(resolve, ms)));
  return stalls;
}

/** The witness process (witness.ts): the machine's own stalls over a span of main's. */
export interface Witness {
  /** Its longest gap over the span, and its gaps over `GAP_MS` there. */
  over(stalls: Stalls): Promise<{ longest: number; gaps: Gap[] }>;
  close(): void;
}

export function startWitness(): Witness {
  const child = fork(fileURLToPath(new URL('./witness.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 1;
  const waiting = new Map<number, (answer: { longest: number; gaps: Gap[] }) => void>();
  child.on('message', (raw) => {
    const { id, longest, gaps } = raw as { id: number; longest: number; gaps: Gap[] };
    waiting.get(id)?.({ longest, gaps });
    waiting.delete(id);
  });
  return {
    over: (stalls) =>
      new Promise((resolve) => {
        const id = nextId++;
        waiting.set(id, resolve);
        child.send({ id, from: stalls.from, to: stalls.to });
      }),
    close: () => void child.kill(),
  };
}
