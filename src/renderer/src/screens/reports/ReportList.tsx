import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ReportListItemView } from '@shared/bridge/views';
import { listScroll, openFromList, REPORT_BLOCK, reportAt, useReports } from '../../stores/reports';
import { listSelection } from '../../stores/report-opening';
import { useReport } from '../../stores/report';
import { whenQuiet } from '../../lib/quiet';
import { recycledKeys } from '../../lib/row-keys';
import { focusOpenReport } from '../../lib/focus';
import { ReportRow } from './ReportRow';

const ROW_HEIGHT = 64;

/** Where the list's row `index` (0-based) is, among the blocks loaded; -1 when not loaded. */
function indexOf(blocks: Record<number, ReportListItemView[]>, id: string | null): number {
  if (id === null) return -1;
  for (const [block, items] of Object.entries(blocks)) {
    const at = items.findIndex((item) => item.id === id);
    if (at >= 0) return Number(block) * REPORT_BLOCK + at;
  }
  return -1;
}

/** The link of the list's row `index` (0-based), when that row is rendered. */
function rowLink(list: HTMLElement | null, index: number): HTMLElement | null {
  return list?.querySelector<HTMLElement>(`[aria-posinset="${index + 1}"] a`) ?? null;
}

/**
 * The mirror's reports, virtualized: only the rows in view exist in the DOM, and only their
 * blocks are fetched. The scroll offset survives reloads (the rows are swapped in place) and
 * leaving the screen; a new search, filter or order starts again at the top.
 *
 * The open report's row is selected. The list is one tab stop (the selected or last focused
 * row); up/down (Home, End, Page Up, Page Down) move to another row and, beside the open report,
 * open it; Enter opens the row and moves the focus into the report.
 */
export function ReportList({ selectedId, narrow }: { selectedId: string | null; narrow: boolean }) {
  const total = useReports((s) => s.total);
  const blocks = useReports((s) => s.blocks);
  const queryVersion = useReports((s) => s.queryVersion);
  const ensureRange = useReports((s) => s.ensureRange);
  const scrollRef = useRef<HTMLDivElement>(null);
  const count = total ?? 0;
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    // Shown again: back where the user left it (the store kept the count, so the rows exist).
    initialOffset: () => listScroll.offset,
    onChange: (instance) => {
      // While the count is still unknown the offset is 0 for lack of rows, not by the user.
      if (count > 0) listScroll.offset = instance.scrollOffset ?? 0;
    },
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;

  // What each row shows (a report twice, from two blocks read at different times, is two rows),
  // and its recycled key (lib/row-keys.ts).
  const rows = items.map((v) => ({ v, item: reportAt(blocks, v.index) }));
  const names: string[] = [];
  const named = new Set<string>();
  for (const { v, item } of rows) {
    const name = item && !named.has(item.id) ? item.id : `row:${v.index}`;
    named.add(name);
    names.push(name);
  }
  const rowKeys = useRef(new Map<string, number>());
  /** The row holding the keyboard focus, by name. */
  const focusedRow = useRef<string | null>(null);
  const keys = recycledKeys(rowKeys.current, names, focusedRow.current);
  useLayoutEffect(() => {
    rowKeys.current = keys;
  });
  useEffect(() => {
    if (count > 0) ensureRange(first, last);
  }, [first, last, count, ensureRange]);

  // The reports of the rows in view are read while the researcher reads them: a click on one
  // then shows it without a round trip to the engine (stores/report.ts, `readShownRows`).
  const inView = virtualizer.range;
  const shownFrom = inView?.startIndex ?? -1;
  const shownTo = inView?.endIndex ?? -1;
  useEffect(() => {
    if (shownFrom < 0) return;
    const ids: string[] = [];
    for (let index = shownFrom; index <= shownTo; index++) {
      const item = reportAt(blocks, index);
      if (item) ids.push(item.id);
    }
    if (ids.length === 0) return;
    return whenQuiet(() => void useReport.getState().readShownRows(ids));
  }, [shownFrom, shownTo, blocks]);

  const seenQuery = useRef(queryVersion);
  useEffect(() => {
    if (seenQuery.current === queryVersion) return;
    seenQuery.current = queryVersion;
    virtualizer.scrollToOffset(0);
  }, [queryVersion, virtualizer]);

  const selectedIndex = useMemo(() => indexOf(blocks, selectedId), [blocks, selectedId]);

  // A report opened from elsewhere (the inbox, a link) is scrolled into view once it is found.
  const revealed = useRef<string | null>(null);
  useEffect(() => {
    if (selectedId === null || selectedIndex < 0 || revealed.current === selectedId) return;
    revealed.current = selectedId;
    if (selectedIndex < first || selectedIndex > last) {
      virtualizer.scrollToIndex(selectedIndex, { align: 'center' });
    }
  }, [selectedId, selectedIndex, first, last, virtualizer]);

  // Back or Forward showed another report: a focus in the list moves to its row, so an arrow key
  // goes on from the report shown, not from the row of the one left.
  useEffect(() => {
    if (selectedId === null || listSelection.fromHistory !== selectedId) return;
    const list = scrollRef.current;
    if (!list?.contains(document.activeElement)) {
      listSelection.fromHistory = null;
      return;
    }
    const link = rowLink(list, selectedIndex);
    if (!link) return;
    listSelection.fromHistory = null;
    link.focus();
  }, [selectedId, selectedIndex]);

  // The row last focused, as long as the same report stays open (else the open report's row).
  const [focused, setFocused] = useState<{ index: number; openId: string | null } | null>(null);
  // Another report shown forgets it: else Back to the report it was focused under revived it,
  // and the tab stop was the row of the report just left (a walk).
  const [focusedUnder, setFocusedUnder] = useState(selectedId);
  if (focusedUnder !== selectedId) {
    setFocusedUnder(selectedId);
    if (focused && focused.openId !== selectedId) setFocused(null);
  }

  // Back at the list from a report (none open now): the focus returns to that report's row once
  // it is rendered, unless the user has put it somewhere already (only the screen's heading, where
  // moving to a screen puts it, or nothing, is taken over).
  useEffect(() => {
    const left = listSelection.left;
    const list = scrollRef.current;
    if (selectedId !== null || left === null || !list) return;
    const active = document.activeElement;
    const unplaced = !active || active === document.body || active.tagName === 'H1';
    if (!unplaced || list.contains(active)) {
      listSelection.left = null;
      return;
    }
    // Not rendered yet (the rows come with the list's first layout): tried again as they do.
    const index = indexOf(blocks, left);
    const link = rowLink(list, index);
    if (!link) return;
    listSelection.left = null;
    setFocused({ index, openId: null });
    link.focus();
  }, [selectedId, blocks, first, last]);
  const rendered = (index: number): boolean => index >= first && index <= last && index >= 0;
  const focusIndex = focused && focused.openId === selectedId ? focused.index : -1;
  // Else the first row in view (not one of the rows rendered above it: Tab would scroll to it).
  const tabStop = rendered(focusIndex)
    ? focusIndex
    : rendered(selectedIndex)
      ? selectedIndex
      : Math.max(first, shownFrom);

  /** A row to move to once its block is loaded and it is rendered. */
  const target = useRef<{ index: number; enter: boolean } | null>(null);
  function settle(): void {
    const wanted = target.current;
    if (!wanted) return;
    const item = reportAt(useReports.getState().blocks, wanted.index);
    const link = rowLink(scrollRef.current, wanted.index);
    if (!item || !link) return;
    target.current = null;
    link.focus();
    // Focusing the link scrolls only the link into view: the row's second line (status, program,
    // date) stayed cut off at the list's edge. The whole row is brought in, if not in already.
    virtualizer.scrollToIndex(wanted.index, { align: 'auto' });
    const open = wanted.enter || !narrow;
    if (open && item.id !== selectedId) {
      openFromList(item.id, { replace: !wanted.enter && selectedId !== null });
    }
    if (wanted.enter) focusOpenReport(item.id);
  }
  useEffect(() => settle());

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>): void {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const row = (e.target as HTMLElement).closest('[aria-posinset]');
    if (!row || count === 0) return;
    const current = Number(row.getAttribute('aria-posinset')) - 1;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 0) / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = {
      ArrowDown: current + 1,
      ArrowUp: current - 1,
      Home: 0,
      End: count - 1,
      PageDown: current + page,
      PageUp: current - page,
      Enter: current,
    };
    const next = moves[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const index = Math.min(count - 1, Math.max(0, next));
    target.current = { index, enter: e.key === 'Enter' };
    if (!rendered(index)) virtualizer.scrollToIndex(index, { align: 'auto' });
    settle();
  }

  return (
    <div ref={scrollRef} className="report-scroller" onKeyDown={onKeyDown}>
      <div
        role="list"
        aria-label="Reports"
        className="report-list"
        style={{ height: virtualizer.getTotalSize() }}
      >
        {rows.map(({ v, item }, at) => {
          const name = names[at] ?? '';
          return (
            <div
              key={keys.get(name)}
              role="listitem"
              aria-setsize={count}
              aria-posinset={v.index + 1}
              className="report-item"
              style={{ transform: `translateY(${v.start}px)`, height: v.size }}
              onFocus={() => {
                focusedRow.current = name;
                setFocused({ index: v.index, openId: selectedId });
              }}
              onBlur={(e) => {
                if (!e.currentTarget.contains(e.relatedTarget as Node | null))
                  focusedRow.current = null;
              }}
            >
              {item ? (
                <ReportRow
                  item={item}
                  selected={item.id === selectedId}
                  tabStop={v.index === tabStop}
                />
              ) : (
                <div className="report-row placeholder">Loading…</div>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
