import { create } from 'zustand';
import type { ReportStatus } from '@shared/api';
import {
  REPORT_SORTS,
  type ReportListItemView,
  type ReportListPageView,
  type ReportProgramCount,
  type ReportSort,
} from '@shared/bridge/views';
import { bridge } from '../bridge';
import { readRemembered, remember } from '../lib/remembered';
import { reportError } from './notices';
import { navigate, shownHash } from './router';
import { listSelection, showWhenRead } from './report-opening';

/**
 * The reports list as the virtual list scrolls through it: rows are fetched in blocks (one SQL
 * page each, see store/report-list/ in the engine) for the rows in view, so 100,000 reports cost
 * what the screen shows. A reload (a sync changed something) refetches only the blocks in view and
 * swaps them in at once: the list neither empties nor moves.
 */
export const REPORT_BLOCK = 200;
/** Blocks kept while scrolling (the ones nearest the view); others are fetched again if needed. */
export const KEPT_BLOCKS = 24;
/**
 * Rows beyond those in view whose block is fetched already: a scroll reaches the next block with
 * its rows there, instead of placeholders swapped for rows a moment later (twice the work in the
 * frames a block arrives).
 */
export const FETCH_AHEAD = REPORT_BLOCK / 2;
/**
 * Block requests under way at once. Dragging the scroll bar passes a new block every other frame:
 * a block is asked for only when a request is free and it is still in view then, and one that
 * scrolled past while on its way is dropped, so a drag through 100,000 reports reads (and keeps)
 * the blocks it stops at, not every block it passed.
 */
const IN_FLIGHT = 2;
/** While a search could not see every report yet (just written, being indexed), ask again. */
const INDEXING_RETRY_MS = 1_000;

interface ReportsState {
  search: string;
  statuses: ReportStatus[];
  /** Only this program's reports (null: every program). */
  program: string | null;
  sort: ReportSort;
  total: number | null;
  /** `total` is a lower bound: the search's exact count is on its way (countReports). */
  totalPending: boolean;
  counts: Partial<Record<ReportStatus, number>>;
  /** The service's label of each status, where it has reports in it (the filter says it). */
  statusLabels: Partial<Record<ReportStatus, string>>;
  /** Every program with reports, for the program filter. */
  programs: ReportProgramCount[];
  /** Reports the last search could not look at yet (being indexed). */
  indexing: number;
  blocks: Record<number, ReportListItemView[]>;
  /** Bumped on every reload so stale block answers are dropped. */
  generation: number;
  /** Bumped when the query changes: the list goes back to its top. */
  queryVersion: number;
  setSearch(search: string): void;
  toggleStatus(status: ReportStatus): void;
  setProgram(program: string | null): void;
  setSort(sort: ReportSort): void;
  /** The "New report" dialog (the program to report to) is open. */
  newReport: boolean;
  setNewReport(open: boolean): void;
  reload(): Promise<void>;
  /**
   * Asks for the list's first block now, as the app starts: its first reload takes that answer
   * instead of asking after the account has answered (one round trip fewer before the first
   * rows). Not signed in, the answer is an error, dropped: the reload asks again.
   */
  prefetch(): void;
  /** The rows in view (overscan included): their blocks are fetched when missing. */
  ensureRange(first: number, last: number): void;
}

// The list's order and program are kept across restarts, as the split beside it is.
const SORT_KEY = 'bountyDesk.reportsSort';
const PROGRAM_KEY = 'bountyDesk.reportsProgram';

function rememberedSort(): ReportSort {
  const stored = readRemembered(SORT_KEY);
  return REPORT_SORTS.find((sort) => sort === stored) ?? 'updated';
}

const LABELS_KEY = 'bountyDesk.statusLabels';

/** The service's labels seen before, as kept across restarts (anything unreadable: none). */
function rememberedLabels(): Partial<Record<ReportStatus, string>> {
  try {
    const kept: unknown = JSON.parse(readRemembered(LABELS_KEY) ?? '{}');
    if (typeof kept !== 'object' || kept === null) return {};
    return Object.fromEntries(
      // Looked up by status only: a key that is none is never read.
      Object.entries(kept).filter(
        (entry): entry is [ReportStatus, string] => typeof entry[1] === 'string',
      ),
    );
  } catch {
    return {};
  }
}

/**
 * The service labels only the statuses the mirror holds reports in: once seen, a label stays
 * (and is kept across restarts), so the filter does not say "In triage (1)" and then, with that
 * report moved on, the app's "Triaging (0)" (walks 18, 19). The same labels keep their identity.
 */
function knownLabels(
  before: Partial<Record<ReportStatus, string>>,
  page: Partial<Record<ReportStatus, string>>,
): Partial<Record<ReportStatus, string>> {
  const merged = { ...before, ...page };
  if (sameJson(before, merged)) return before;
  remember(LABELS_KEY, JSON.stringify(merged));
  return merged;
}

const pending = new Set<string>();
/** The first block asked for by `prefetch`, until the first reload takes it (if still fresh). */
let early: Promise<ReportListPageView> | null = null;
let earlyAt = 0;
const EARLY_FRESH_MS = 5_000;
let view = { first: 0, last: 0 };
let retry: ReturnType<typeof setTimeout> | undefined;
/** The generation whose exact count was asked for, and its answer once it came. */
let counted: { generation: number; total: number | null } | null = null;

/**
 * The list opens a report (a click, the arrow keys): read ahead of its screen, focus kept.
 * `replace`: the report takes the open one's history entry (an arrow key moves the selection:
 * Back leaves the list's browsing instead of stepping through every report passed).
 */
export function openFromList(reportId: string, options?: { replace?: boolean }): void {
  listSelection.openedFromList = reportId;
  showWhenRead(reportId, () => navigate({ name: 'report', reportId }, options), shownHash);
}

/**
 * The list's scroll offset, kept when the screen is left and shown again. Not state: it changes
 * every frame of a scroll, and nothing renders from it.
 */
export const listScroll = { offset: 0 };

function blocksOf(first: number, last: number): number[] {
  const out: number[] = [];
  for (let b = Math.floor(first / REPORT_BLOCK); b <= Math.floor(last / REPORT_BLOCK); b++)
    out.push(b);
  return out;
}

const inView = (block: number): boolean =>
  block >= Math.floor(view.first / REPORT_BLOCK) && block <= Math.floor(view.last / REPORT_BLOCK);
const near = (): number => Math.floor(view.first / REPORT_BLOCK);
function inFlight(generation: number): number {
  let n = 0;
  const prefix = `${generation}:`;
  for (const key of pending) if (key.startsWith(prefix)) n++;
  return n;
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** At most KEPT_BLOCKS, the nearest to the view first. */
function trim(blocks: Record<number, ReportListItemView[]>): Record<number, ReportListItemView[]> {
  const keys = Object.keys(blocks).map(Number);
  if (keys.length <= KEPT_BLOCKS) return blocks;
  const center = Math.floor((view.first + view.last) / 2 / REPORT_BLOCK);
  const kept = keys.sort((a, b) => Math.abs(a - center) - Math.abs(b - center));
  return Object.fromEntries(kept.slice(0, KEPT_BLOCKS).map((b) => [b, blocks[b] ?? []]));
}

export const useReports = create<ReportsState>((set, get) => {
  function listQuery() {
    const { search, statuses, program, sort } = get();
    return {
      ...(search.trim() ? { search: search.trim() } : {}),
      ...(statuses.length ? { status: statuses } : {}),
      ...(program ? { program } : {}),
      ...(sort !== 'updated' ? { sort } : {}),
    };
  }

  // Rows first: a new search's page answers before its count (which reads every hit), and the
  // exact count follows at once (countExactly).
  function query(block: number) {
    return bridge.listReports({
      ...listQuery(),
      offset: block * REPORT_BLOCK,
      limit: REPORT_BLOCK,
      rowsFirst: true,
    });
  }

  /** Asks once per generation for the exact total a page left pending; shown when it comes. */
  function countExactly(generation: number): void {
    if (counted?.generation === generation) return;
    const asked = { generation, total: null as number | null };
    counted = asked;
    bridge
      .countReports(listQuery())
      .then((total) => {
        asked.total = total;
        if (get().generation === generation) set({ total, totalPending: false });
      })
      .catch(reportError);
  }

  function summary(page: ReportListPageView, generation: number) {
    clearTimeout(retry);
    if (page.indexing > 0) retry = setTimeout(() => void get().reload(), INDEXING_RETRY_MS);
    // A page that answered before the count: the exact one, once known, stays.
    let total = page.total;
    let totalPending = page.totalPending === true;
    if (totalPending) {
      const known = counted?.generation === generation ? counted.total : null;
      if (known !== null) {
        total = known;
        totalPending = false;
      } else {
        countExactly(generation);
      }
    }
    // The same counts keep their identity, so the toolbar does not re-render for every block
    // that arrives while the list scrolls.
    const { counts, statusLabels, programs } = get();
    return {
      total,
      totalPending,
      counts: sameJson(counts, page.counts) ? counts : page.counts,
      statusLabels: knownLabels(statusLabels, page.statusLabels),
      programs: sameJson(programs, page.programs) ? programs : page.programs,
      indexing: page.indexing,
    };
  }

  async function fetchBlock(block: number, generation: number): Promise<void> {
    const key = `${generation}:${block}`;
    if (pending.has(key)) return;
    pending.add(key);
    let answered = false;
    try {
      const page = await query(block);
      if (get().generation !== generation) return;
      answered = true;
      const around = summary(page, generation);
      if (!wantedNow().includes(block)) {
        // Scrolled past while on its way: its rows would only be dropped again by `trim`.
        set(around);
        return;
      }
      set((s) => ({ ...around, blocks: trim({ ...s.blocks, [block]: page.items }) }));
    } catch (e) {
      reportError(e);
    } finally {
      pending.delete(key);
      // A request is free: the blocks the view needs now (not those it needed then).
      if (answered) get().ensureRange(view.first, view.last);
    }
  }

  /** The blocks of the rows in view and of those a scroll reaches next. */
  function wantedNow(): number[] {
    const { total } = get();
    const { first, last } = view;
    const end = total === null ? last + FETCH_AHEAD : Math.min(total - 1, last + FETCH_AHEAD);
    return blocksOf(Math.max(0, first - FETCH_AHEAD), Math.max(last, end));
  }

  /** The prefetched first block, once, while the query is still the one it was asked with. */
  function takeEarly(block: number): Promise<ReportListPageView> | null {
    const answer = block === 0 && performance.now() - earlyAt < EARLY_FRESH_MS ? early : null;
    early = null;
    return answer?.catch(() => query(0)) ?? null;
  }

  function requery(): void {
    early = null;
    set((s) => ({ queryVersion: s.queryVersion + 1 }));
    listScroll.offset = 0;
    view = { first: 0, last: 0 };
    void get().reload();
  }

  return {
    search: '',
    statuses: [],
    // A program id from storage is only ever a query value; the filter lists it until cleared.
    program: readRemembered(PROGRAM_KEY) || null,
    sort: rememberedSort(),
    total: null,
    totalPending: false,
    counts: {},
    statusLabels: rememberedLabels(),
    programs: [],
    indexing: 0,
    blocks: {},
    generation: 0,
    queryVersion: 0,
    setSearch(search) {
      set({ search });
      requery();
    },
    toggleStatus(status) {
      const statuses = get().statuses.includes(status)
        ? get().statuses.filter((s) => s !== status)
        : [...get().statuses, status];
      set({ statuses });
      requery();
    },
    setProgram(program) {
      set({ program });
      remember(PROGRAM_KEY, program);
      requery();
    },
    setSort(sort) {
      set({ sort });
      remember(SORT_KEY, sort);
      requery();
    },
    newReport: false,
    setNewReport(newReport) {
      set({ newReport });
    },
    async reload() {
      const generation = get().generation + 1;
      set({ generation });
      const wanted = blocksOf(view.first, view.last);
      try {
        const answers = await Promise.all(wanted.map((block) => takeEarly(block) ?? query(block)));
        if (get().generation !== generation) return;
        // Rows are replaced in one step, so the list never flickers through empty placeholders.
        const blocks: Record<number, ReportListItemView[]> = {};
        wanted.forEach((block, i) => {
          const answer = answers[i];
          if (answer && (answer.items.length > 0 || block === 0)) blocks[block] = answer.items;
        });
        const first = answers[0];
        set({
          blocks,
          ...(first ? summary(first, generation) : { total: 0, totalPending: false }),
        });
        // The view may have moved while the reload was on its way (the list was shown again at
        // its old place): fetch what it shows now.
        get().ensureRange(view.first, view.last);
      } catch (e) {
        reportError(e);
      }
    },
    prefetch() {
      if (early || get().generation > 0) return;
      early = query(0);
      earlyAt = performance.now();
      early.catch(() => undefined);
    },
    ensureRange(first, last) {
      view = { first, last };
      const { blocks, generation } = get();
      // The blocks in view before those ahead of it.
      const wanted = wantedNow().sort(
        (a, b) =>
          Number(inView(b)) - Number(inView(a)) || Math.abs(a - near()) - Math.abs(b - near()),
      );
      for (const block of wanted) {
        if (blocks[block] || pending.has(`${generation}:${block}`)) continue;
        if (inFlight(generation) >= IN_FLIGHT) break;
        void fetchBlock(block, generation);
      }
    },
  };
});

export function reportAt(
  blocks: Record<number, ReportListItemView[]>,
  index: number,
): ReportListItemView | undefined {
  return blocks[Math.floor(index / REPORT_BLOCK)]?.[index % REPORT_BLOCK];
}
