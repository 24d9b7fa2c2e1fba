import { useEffect, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { listScroll, reportAt, useReports } from '../../stores/reports';
import { ReportRow } from './ReportRow';

const ROW_HEIGHT = 64;

/**
 * The mirror's reports, virtualized: only the rows in view exist in the DOM, and only their
 * blocks are fetched. The scroll offset survives reloads (the rows are swapped in place) and
 * leaving the screen; a new search or filter starts again at the top.
 */
export function ReportList() {
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
  useEffect(() => {
    if (count > 0) ensureRange(first, last);
  }, [first, last, count, ensureRange]);

  const seenQuery = useRef(queryVersion);
  useEffect(() => {
    if (seenQuery.current === queryVersion) return;
    seenQuery.current = queryVersion;
    virtualizer.scrollToOffset(0);
  }, [queryVersion, virtualizer]);

  return (
    <div ref={scrollRef} className="report-scroller">
      <div
        role="list"
        aria-label="Reports"
        className="report-list"
        style={{ height: virtualizer.getTotalSize() }}
      >
        {items.map((v) => {
          const item = reportAt(blocks, v.index);
          return (
            <div
              key={item?.id ?? `placeholder-${v.index}`}
              role="listitem"
              aria-setsize={count}
              aria-posinset={v.index + 1}
              className="report-item"
              style={{ transform: `translateY(${v.start}px)`, height: v.size }}
            >
              {item ? (
                <ReportRow item={item} />
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
