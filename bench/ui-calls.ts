/**
 * What both processes of the UI bench share (bench/ui.ts plays main with the engine in a process of its own; its child
 * bench/ui-old-main.ts plays main before it, with the engine on its thread): the calls the UI
 * makes, how they are timed, and the shapes of the figures. Nothing here loads the engine: the
 * process playing main must hold no more than main does.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { TEMPLATE_HEADINGS } from '../src/shared/api';
import type { DraftContent, ReportQuery } from '../src/shared/bridge/views';
import { median, percentile } from './result';
import { reportRequests, resetStats, stats, type Stats } from './sandbox-control';
import type { Stalls } from './stall-monitor';

export const PAGE = 200;
/**
 * Searches of the same breadth (each matches about a quarter of the reports), taken in turn: the
 * list keeps the last search's hits until something is written (store/report-list/hits.ts), so the
 * same search again would measure that cache, not a search.
 */
export const SEARCHES = ['token', 'session'];
export const SEARCH = SEARCHES[0] as string;
const searchOf = (i: number): string => SEARCHES[i % SEARCHES.length] as string;
/** Saves 300 ms apart, as the editor's autosave makes them (autosave.ts). */
export const SAVES = 40;
export const SAVE_PAUSE_MS = 300;
export const PROGRAM = 'acme-web';
/** Calls per figure through the protocol; the old path at 100,000 takes a second a call. */
export const RUNS = 100;
export const OLD_RUNS = (n: number): number => (n >= 100_000 ? 5 : 20);

/**
 * Main's stalls over a span, with the witness's over the same span (the machine's own) and main's
 * longest stall less the parts the witness shared (`longestUnshared`).
 */
export type Watched = Stalls & { witness: number; unshared: number };

export interface Timed {
  p95: number;
  median: number;
  stalls: Watched;
}

export interface CallSet {
  first: Timed;
  middle: Timed;
  status: Timed;
  search: Timed;
  searchStatus: Timed;
  searchScroll: Timed;
  searchJump: Timed;
  open: Timed;
  save: Timed;
}

export interface Drain {
  ms: number;
  stalls: Watched;
  /** Round trips of list and search calls made while it drained (after only). */
  calls?: { p95: number; max: number; count: number; indexing: number };
}

export interface Mirror {
  ms: number;
  stalls: Watched;
  requests: number;
  all: number;
  limited: number;
}

type ListCall =
  'first' | 'middle' | 'status' | 'search' | 'searchStatus' | 'searchScroll' | 'searchJump';

/**
 * The query of each list call, by the call's number in its run, as the reports screen sends it:
 * rows first (a new search's page answers before its count; the screen then asks countReports,
 * timed apart: bench/ui.ts).
 */
export function queries(n: number): Record<ListCall, (i: number) => ReportQuery> {
  const page = { limit: PAGE, rowsFirst: true };
  return {
    first: () => ({ offset: 0, ...page }),
    middle: () => ({ offset: Math.floor(n / 2), ...page }),
    status: () => ({ status: ['accepted'], offset: 0, ...page }),
    search: (i) => ({ search: searchOf(i), offset: 0, ...page }),
    searchStatus: (i) => ({ search: searchOf(i), status: ['accepted'], offset: 0, ...page }),
    searchScroll: (i) => ({ search: SEARCH, offset: (i % 100) * PAGE, ...page }),
    // Anywhere in the search's hits (about a quarter of the reports), back and forth.
    searchJump: (i) => ({
      search: SEARCH,
      offset: Math.floor((((i * 37) % 101) / 101) * (n / 5)),
      ...page,
    }),
  };
}

export function description(i: number): string {
  return TEMPLATE_HEADINGS.map(
    (h) => `## ${h}\n\nEdit ${i}: the redirect accepts any absolute URL after sign-in.`,
  ).join('\n\n');
}

/** A turn of the event loop between calls, as separate clicks and IPC messages would have. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

// Between figures the garbage of the last one is collected, so that none pays for another's.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
export async function collectGarbage(): Promise<void> {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 50));
}

/** Runs `fn` with this process's event loop watched (stall-monitor.ts). */
export type Watch = <T>(fn: () => Promise<T> | T) => Promise<{ value: T; stalls: Watched }>;

/**
 * `runs` calls one after the other (`pauseMs` apart: the editor saves a draft 300 ms after the
 * last keystroke, so saves never come closer), p95 and median, main's stalls over all of them.
 */
export async function timeCalls(
  watch: Watch,
  runs: number,
  call: (i: number) => Promise<unknown> | unknown,
  pauseMs = 0,
): Promise<Timed> {
  const warm = Math.min(5, runs);
  for (let i = 0; i < warm; i++) await call(i);
  await collectGarbage();
  const times: number[] = [];
  const { stalls } = await watch(async () => {
    // Numbered on from the warm-up: a call never repeats the one just before it.
    for (let i = warm; i < warm + runs; i++) {
      const t0 = performance.now();
      await call(i);
      times.push(performance.now() - t0);
      await (pauseMs > 0 ? new Promise((resolve) => setTimeout(resolve, pauseMs)) : nextTurn());
    }
  });
  return { p95: percentile(times, 95), median: median(times), stalls };
}

/** How one side (the old main, or main through the protocol) makes each kind of call. */
export interface CallMaker {
  list(query: ReportQuery): Promise<unknown> | unknown;
  /** Opens the `i`-th report of the sample. */
  open(i: number): Promise<unknown> | unknown;
  save(draftId: string, content: DraftContent): Promise<unknown> | unknown;
}

/** Every figure of a CallSet, in order, list calls `listRuns` times each. */
export async function timeCallSet(
  watch: Watch,
  n: number,
  listRuns: number,
  draftId: string,
  make: CallMaker,
): Promise<CallSet> {
  const q = queries(n);
  const list = (query: (i: number) => ReportQuery) =>
    timeCalls(watch, listRuns, (i) => make.list(query(i)));
  return {
    first: await list(q.first),
    middle: await list(q.middle),
    status: await list(q.status),
    search: await list(q.search),
    searchStatus: await list(q.searchStatus),
    searchScroll: await list(q.searchScroll),
    searchJump: await list(q.searchJump),
    open: await timeCalls(watch, RUNS, (i) => make.open(i)),
    save: await timeCalls(
      watch,
      SAVES,
      (i) =>
        make.save(draftId, {
          title: `Draft edit ${i}`,
          asset: 'https://acme.example/',
          description: description(i),
          cvss_vector: '',
        }),
      SAVE_PAUSE_MS,
    ),
  };
}

/**
 * An initial mirror timed from a reset of the server's counts: `sync` runs it (on this thread or
 * through the protocol); the requests it made, by the server's count.
 */
export async function timeMirror(
  watch: Watch,
  sandboxUrl: string,
  sync: () => Promise<unknown>,
): Promise<Mirror & { after: Stats }> {
  await resetStats(sandboxUrl);
  const t0 = performance.now();
  const { stalls } = await watch(sync);
  const ms = performance.now() - t0;
  const after = await stats(sandboxUrl);
  return {
    ms,
    stalls,
    requests: reportRequests(after),
    all: after.requests,
    limited: after.by_status['429'] ?? 0,
    after,
  };
}
