/**
 * What a process's resident set is made of, read inside it: V8's heap as V8 counts it, the
 * buffers outside it, and the rest as the kernel maps it (`/proc/self/smaps`): malloc's main arena
 * (`[heap]`: SQLite's page cache and statements live there when only the main thread allocates),
 * glibc's per-thread arenas (64 MiB regions, one per thread that ever called malloc, up to 8 per
 * core), other anonymous memory (V8's own pages, large malloc chunks, stacks), mapped files (code,
 * native addons) and SQLite's WAL index (`-shm`). Linux only, as the benches are.
 */
import { readFileSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';

const MB = 1024 * 1024;
/** glibc's HEAP_MAX_SIZE on 64-bit: a thread arena is one region of this size, partly reserved. */
const ARENA_KB = 64 * 1024;

export interface MemoryBreakdown {
  rss: number;
  /** V8's heap pages in memory (`total_physical_size`), and the live objects in them. */
  v8Heap: number;
  v8Used: number;
  /** Memory V8 objects hold outside the heap (`external`: ArrayBuffers, SQLite's handles…). */
  external: number;
  /** malloc's main arena (brk). */
  mallocMain: number;
  /** glibc's per-thread arenas, and how many there are. */
  threadArenas: number;
  arenaCount: number;
  /** Anonymous memory outside both (V8's pages among it, so V8's heap is subtracted). */
  otherAnon: number;
  /** Mapped files: code and native addons. */
  files: number;
  /** SQLite's WAL index, shared with any other connection to the mirror. */
  sqliteShm: number;
}

interface Mapping {
  name: string;
  sizeKb: number;
  rssKb: number;
  perms: string;
}

function mappings(): Mapping[] {
  const out: Mapping[] = [];
  let current: Mapping | null = null;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \S+\s*(.*)$/u.exec(line);
    if (header) {
      current = { name: header[2] ?? '', sizeKb: 0, rssKb: 0, perms: header[1] ?? '' };
      out.push(current);
      continue;
    }
    const field = /^(Size|Rss):\s+(\d+) kB/u.exec(line);
    if (field && current) {
      if (field[1] === 'Size') current.sizeKb = Number(field[2]);
      else current.rssKb = Number(field[2]);
    }
  }
  return out;
}

/** This process's resident set by what holds it, MB. */
export function memoryBreakdown(): MemoryBreakdown {
  const usage = process.memoryUsage();
  const heap = getHeapStatistics();
  const maps = mappings();
  let mallocMain = 0;
  let threadArenas = 0;
  let arenaCount = 0;
  let anon = 0;
  let files = 0;
  let sqliteShm = 0;
  for (let i = 0; i < maps.length; i++) {
    const m = maps[i] as Mapping;
    const next = maps[i + 1];
    // A thread arena: its used part (rw-p) followed by its reserved rest (---p), 64 MiB in all.
    if (m.name === '' && m.perms === 'rw-p' && next?.name === '' && next.perms === '---p') {
      if (m.sizeKb + next.sizeKb === ARENA_KB) {
        threadArenas += m.rssKb;
        arenaCount++;
        i++;
        continue;
      }
    }
    if (m.name === '[heap]') mallocMain += m.rssKb;
    else if (m.name.endsWith('-shm')) sqliteShm += m.rssKb;
    else if (m.name.startsWith('/')) files += m.rssKb;
    else anon += m.rssKb;
  }
  const kb = (n: number): number => (n * 1024) / MB;
  return {
    rss: usage.rss / MB,
    v8Heap: heap.total_physical_size / MB,
    v8Used: heap.used_heap_size / MB,
    external: usage.external / MB,
    mallocMain: kb(mallocMain),
    threadArenas: kb(threadArenas),
    arenaCount,
    otherAnon: Math.max(0, kb(anon) - heap.total_physical_size / MB),
    files: kb(files),
    sqliteShm: kb(sqliteShm),
  };
}

/** One line for the bench's figures. */
export function describeBreakdown(m: MemoryBreakdown): string {
  const f = (n: number): string => `${n.toFixed(0)} MB`;
  return (
    `V8 heap ${f(m.v8Heap)} (live ${f(m.v8Used)}), external ${f(m.external)}, ` +
    `malloc main arena ${f(m.mallocMain)}, ${m.arenaCount} thread arenas ${f(m.threadArenas)}, ` +
    `other anonymous ${f(m.otherAnon)}, files ${f(m.files)}, SQLite -shm ${f(m.sqliteShm)}`
  );
}
