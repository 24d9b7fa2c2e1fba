/**
 * The UI bench holds main's stalls to the frame by the time main's thread ran in them (the rest is
 * the machine's), so the split must be right: a stall of main's own work reads as run time, a
 * sleep of main's thread as neither run nor wait (Linux's schedstat, where this runs).
 */
import { describe, expect, it } from 'vitest';
import { StallMonitor } from '../../bench/stall-monitor';
import { threadClock } from '../../bench/thread-clock';

/** Works until the thread has run `ms` (however long the machine takes to give it that). */
const busyFor = (ms: number): void => {
  const clock = threadClock();
  if (!clock) throw new Error('no thread clock here');
  const end = clock().run + ms;
  while (clock().run < end);
};
const sleepFor = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

describe('bench: main stalls split into its own work and the machine’s', () => {
  it('reads the thread’s run time: busy work counts, a sleep does not', () => {
    const clock = threadClock();
    expect(clock).not.toBeNull();
    if (!clock) return;
    const before = clock();
    const t0 = performance.now();
    while (performance.now() < t0 + 40);
    const busy = clock();
    sleepFor(40);
    const slept = clock();
    // Under load the loop's 40 ms are not all run; some of them, surely.
    expect(busy.run - before.run).toBeGreaterThan(5);
    expect(slept.run - busy.run).toBeLessThan(10);
    expect(slept.wait).toBeGreaterThanOrEqual(before.wait);
  });

  it('a stall of busy work is main’s own; a stall asleep is not', async () => {
    const { stalls } = await new StallMonitor().during(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      busyFor(60);
      await new Promise((resolve) => setTimeout(resolve, 5));
      sleepFor(90);
      await new Promise((resolve) => setTimeout(resolve, 5));
    });
    // The busy gap ran its 60 ms on main's thread (read a moment apart from the gap's ends).
    expect(stalls.busiest.run).toBeGreaterThan(55);
    expect(stalls.busiest.run).toBeLessThanOrEqual(stalls.busiest.gap + 5);
    // The longest gap, the sleep: main's thread ran almost nothing in it.
    expect(stalls.longestParts.gap).toBeGreaterThan(85);
    expect(stalls.longestParts.run).toBeLessThan(10);
  });
});
