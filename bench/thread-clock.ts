import { openSync, readSync } from 'node:fs';

/** The calling thread's time so far on a core, and runnable but waiting for one, ms. */
export interface ThreadTimes {
  run: number;
  wait: number;
}

/**
 * A reader of the scheduler times of the thread that first asked (Linux's
 * `/proc/thread-self/schedstat`, ns; the stall monitors all run on main's thread), or null where
 * there is none. A stall of main's event loop is then split into main's own work, the time the
 * machine kept it waiting for a core, and the rest (blocked: GC helpers, I/O). Opened once for
 * the process and read at offset 0, which makes the kernel write the figures anew (a few µs).
 */
export function threadClock(): (() => ThreadTimes) | null {
  if (reader === undefined) reader = openReader();
  return reader;
}

let reader: (() => ThreadTimes) | null | undefined;

function openReader(): (() => ThreadTimes) | null {
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
