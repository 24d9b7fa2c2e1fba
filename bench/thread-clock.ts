import { openSync, readSync } from 'node:fs';

/** The calling thread's time so far on a core, and runnable but waiting for one, ms. */
export interface ThreadTimes {
  run: number;
  wait: number;
}

/**
 * A reader of the calling thread's scheduler times (Linux's `/proc/thread-self/schedstat`, ns),
 * or null where there is none. A stall of main's event loop is then split into main's own work,
 * the time the machine kept it waiting for a core, and the rest (blocked: GC helpers, I/O).
 * Opened once and read at offset 0, which makes the kernel write the figures anew (a few µs).
 */
export function threadClock(): (() => ThreadTimes) | null {
  let fd: number;
  try {
    fd = openSync('/proc/thread-self/schedstat', 'r');
  } catch {
    return null;
  }
  const buffer = Buffer.alloc(96);
  return () => {
    const text = buffer.toString('latin1', 0, readSync(fd, buffer, 0, buffer.length, 0));
    const [run = '0', wait = '0'] = text.split(' ');
    return { run: Number(run) / 1e6, wait: Number(wait) / 1e6 };
  };
}
