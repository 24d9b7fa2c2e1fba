import {
  Suspense,
  memo,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type RefObject,
} from 'react';
import { REPORT_STATUSES } from '@shared/api';
import type { ReportSort } from '@shared/bridge/views';
import { useReports } from '../../stores/reports';
import { listSelection } from '../../stores/report-opening';
import { useCommand } from '../../stores/commands';
import { LIST_WIDTH, usePrefs } from '../../stores/prefs';
import { pendingSearchFocus } from '../../stores/router';
import { useReadOnlyReason, useSession } from '../../stores/session';
import { formatMirror, statusLabel } from '../../lib/format';
import { PaneSeparator } from '../../components/PaneSeparator';
import { ReasonedButton } from '../../components/ReasonedButton';
import { ScreenBoundary } from '../../components/ScreenBoundary';
import { SearchInput, useSearchAfterTyping } from '../../components/SearchInput';
import { NewReportDialog } from './NewReportDialog';
import { ReportList } from './ReportList';
import { ReportFilesBar } from './ReportFilesBar';
import { prefetchWhenIdle } from '../../lib/idle-prefetch';
import { preloadable } from '../../lib/preloadable';
import { countOf, formatCount } from '@shared/words/count';
import { RouteLink } from '../../components/RouteLink';

// The open report (the Milkdown editor and its ProseMirror stack, the CVSS calculator, the
// Markdown renderer, the scope guard) is a chunk of its own: the list paints without it.
const loadReportScreen = () => import('../report/ReportScreen');
const reportScreen = preloadable(() => loadReportScreen().then((m) => m.ReportScreen));
const ReportScreen = reportScreen.Component;
/**
 * The chunks a click in the list needs, smallest first, loaded one per idle period once the list
 * shows rows: the first report opened after start then opens as fast as the next one (preloaded,
 * the report's screen and the draft editor render at once, with no Suspense fallback between).
 */
const OPEN_REPORT_CHUNKS = [
  () => import('../../components/Markdown'),
  reportScreen.preload,
  // The editor's libraries, each a chunk of its own evaluated in an idle period of its own: the
  // draft editor's chunk as one took a 114 ms frame to evaluate on the app's first start (a frame
  // a scroll of the list would stutter in); ProseMirror's view (with its model and state), then
  // Milkdown's core (remark, micromark) and its two presets.
  () => import('@milkdown/kit/prose/view'),
  () => import('@milkdown/kit/core'),
  () => import('@milkdown/kit/preset/commonmark'),
  () => import('@milkdown/kit/preset/gfm'),
  // The scope guard's libraries (the public suffix list, IP ranges): a third of the draft
  // editor's chunk, and the longest part of its evaluation, in an idle period of their own.
  () => import('tldts'),
  () => import('ipaddr.js'),
  // Imported from here as well: the draft editor's code is then split into the chunks loaded one
  // per idle period (the Markdown view's, the report screen's), not one chunk evaluated at once.
  () =>
    import('../report/draft/DraftEditor')
      .then(loadReportScreen)
      .then((m) => m.preloadDraftEditor()),
  // Then an editor, made a phase per idle period, that the first draft opened only loads its
  // text into (spare-editor.ts).
  () => import('../../editor/spare-editor').then((m) => m.prepareSpareEditor()),
] as const;

let prefetched = false;
function prefetchOnce(): void {
  if (prefetched) return;
  prefetched = true;
  prefetchWhenIdle(OPEN_REPORT_CHUNKS);
}

const isMac = /Mac/u.test(navigator.platform);
const MOD = isMac ? '⌘' : 'Ctrl+';

// The list's controls take no props and are memoized: each report opened (a new `selectedId`)
// re-rendered them all, the program menu's options included.
const SearchBox = memo(function SearchBox() {
  const search = useReports((s) => s.search);
  const setSearch = useReports((s) => s.setSearch);
  const [text, setText] = useState(search);
  const ref = useRef<HTMLInputElement>(null);
  useSearchAfterTyping(text, search, setSearch);
  useCommand('focus-search', () => ref.current?.focus());
  useEffect(() => {
    if (pendingSearchFocus.value) {
      pendingSearchFocus.value = false;
      ref.current?.focus();
    }
  }, []);
  return (
    <SearchInput
      ref={ref}
      label="Search reports"
      placeholder="Search title, asset, description…"
      className="search"
      text={text}
      onType={setText}
    />
  );
});

/** Each status with how many reports it holds (all of them: a search does not narrow it). */
const StatusFilter = memo(function StatusFilter() {
  const statuses = useReports((s) => s.statuses);
  const counts = useReports((s) => s.counts);
  const labels = useReports((s) => s.statusLabels);
  const toggleStatus = useReports((s) => s.toggleStatus);
  return (
    <fieldset className="filter-group inline status-filter">
      <legend>Status</legend>
      {REPORT_STATUSES.map((status) => (
        <label key={status} className="check">
          <input
            type="checkbox"
            checked={statuses.includes(status)}
            onChange={() => toggleStatus(status)}
          />
          {/* Named as the rows name it: the service's label where it has one. */}
          {statusLabel(status, labels[status])} ({formatCount(counts[status] ?? 0)})
        </label>
      ))}
    </fieldset>
  );
});

const SORT_LABELS: Record<ReportSort, string> = {
  updated: 'Last update',
  status: 'Status',
  program: 'Program',
  severity: 'Severity (CVSS)',
};

/** The order of the list and the program it shows; both are applied by the engine in SQL. */
const SortAndProgram = memo(function SortAndProgram() {
  const sort = useReports((s) => s.sort);
  const setSort = useReports((s) => s.setSort);
  const program = useReports((s) => s.program);
  const setProgram = useReports((s) => s.setProgram);
  const programs = useReports((s) => s.programs);
  const all = programs.reduce((sum, p) => sum + p.count, 0);
  // The program chosen stays listed while the list is reloaded (or after its last report went).
  const known = program === null || programs.some((p) => p.id === program);
  return (
    <div className="list-controls">
      <label className="inline-field">
        <span>Sort by</span>
        <select value={sort} onChange={(e) => setSort(e.target.value as ReportSort)}>
          {(Object.keys(SORT_LABELS) as ReportSort[]).map((key) => (
            <option key={key} value={key}>
              {SORT_LABELS[key]}
            </option>
          ))}
        </select>
      </label>
      <label className="inline-field">
        <span>Program</span>
        <select
          value={program ?? ''}
          onChange={(e) => setProgram(e.target.value === '' ? null : e.target.value)}
        >
          <option value="">All programs ({formatCount(all)})</option>
          {programs.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name} ({formatCount(p.count)})
            </option>
          ))}
          {known ? null : <option value={program ?? ''}>{program}</option>}
        </select>
      </label>
    </div>
  );
});

/** "1,234 reports", or "12 of 1,234 reports" while a search or filter narrows the list. */
const Total = memo(function Total() {
  const total = useReports((s) => s.total);
  // A lower bound for the moment between a new search's rows and its count.
  const atLeast = useReports((s) => s.totalPending);
  const counts = useReports((s) => s.counts);
  const narrowed = useReports(
    (s) => s.search.trim() !== '' || s.statuses.length > 0 || s.program !== null,
  );
  const indexing = useReports((s) => s.indexing);
  const searching = useReports((s) => s.search.trim() !== '');
  const notDownloaded = useSession((s) =>
    s.status?.mirror ? s.status.mirror.total - s.status.mirror.downloaded : 0,
  );
  if (total === null) return <>Loading…</>;
  const all = Object.values(counts).reduce((sum, n) => sum + n, 0);
  const shown = `${formatCount(total)}${atLeast ? '+' : ''}`;
  const text = narrowed ? `${shown} of ${countOf(all, 'report')}` : countOf(total, 'report');
  return (
    <>
      {text}
      {indexing > 0 ? ` (indexing ${formatCount(indexing)} more for search…)` : ''}
      {searching && notDownloaded > 0
        ? ` — ${formatCount(notDownloaded)} not downloaded yet, so not searched in full`
        : ''}
    </>
  );
});

/** The first mirror's progress, above the list while reports are still downloading. */
const MirrorProgress = memo(function MirrorProgress() {
  const mirror = useSession((s) => s.status?.mirror ?? null);
  if (!mirror) return null;
  return (
    <p className="muted mirror-progress" role="status" aria-label="Download progress">
      {formatMirror(mirror)}. Opening a report not downloaded yet fetches it first.
    </p>
  );
});

function NewReportButton({ onClick }: { onClick(): void }) {
  const readOnly = useReadOnlyReason();
  return (
    <ReasonedButton
      className="primary"
      reason={readOnly}
      aria-keyshortcuts={isMac ? 'Meta+N' : 'Control+N'}
      title={`New report (${MOD}N)`}
      onClick={onClick}
    >
      New report
    </ReasonedButton>
  );
}

/** The list side: heading, search, order, filters and the virtual list. */
function ReportsListPane({
  selectedId,
  narrow,
  onNewReport,
}: {
  selectedId: string | null;
  narrow: boolean;
  onNewReport(): void;
}) {
  const total = useReports((s) => s.total);
  const reload = useReports((s) => s.reload);
  useEffect(() => {
    void reload();
  }, [reload]);
  const listed = total !== null && total > 0;
  useEffect(() => {
    if (listed) prefetchOnce();
  }, [listed]);
  return (
    <div className="reports-screen">
      <div className="list-head">
        <h1>Reports</h1>
        <NewReportButton onClick={onNewReport} />
      </div>
      <div className="toolbar">
        <SearchBox />
        <span className="muted" aria-live="polite">
          <Total />
        </span>
      </div>
      <MirrorProgress />
      <SortAndProgram />
      <StatusFilter />
      <ReportFilesBar selectedId={selectedId} />
      {total === 0 ? (
        <p className="empty">No reports here yet. Choose "New report" ({MOD}N) to start one.</p>
      ) : null}
      <ReportList selectedId={selectedId} narrow={narrow} />
    </div>
  );
}

/** What the right pane shows while no report is open. */
function EmptyPane() {
  return (
    <div className="pane-hint">
      <p>Choose a report in the list to open it here.</p>
      <ul className="muted">
        <li>
          <kbd>↑</kbd> <kbd>↓</kbd> move through the list and open each report
        </li>
        <li>
          <kbd>Enter</kbd> moves into the open report
        </li>
        <li>
          <kbd>{MOD}N</kbd> starts a new report, <kbd>{MOD}F</kbd> searches
        </li>
      </ul>
    </div>
  );
}

const NARROW = '(max-width: 899px)';

function subscribeNarrow(onChange: () => void): () => void {
  const query = window.matchMedia(NARROW);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** Below about 900 px there is room for one pane at a time. */
function useNarrowWindow(): boolean {
  return useSyncExternalStore(subscribeNarrow, () => window.matchMedia(NARROW).matches);
}

/** The open report needs at least this much beside the list. */
const DETAIL_MIN = 400;

/** The width the workspace has, followed as the window is resized. */
function useWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/**
 * The reports workspace, like a mail client: the list on the left, the open report or draft on
 * the right (`#/reports/<id>`), or a hint while none is open (`#/reports`). The split is dragged
 * or moved with the arrow keys and remembered. On a narrow window one pane shows at a time.
 */
export function ReportsScreen({ selectedId }: { selectedId: string | null }) {
  const narrow = useNarrowWindow();
  const listWidth = usePrefs((s) => s.listWidth);
  const setListWidth = usePrefs((s) => s.setListWidth);
  const newReport = useReports((s) => s.newReport);
  const setNewReport = useReports((s) => s.setNewReport);
  useCommand('new-report', () => setNewReport(true));
  // The report opened has read whether the list opened it (as it rendered): the next one opened
  // from elsewhere (the inbox, a link) takes the focus as usual.
  useEffect(() => {
    listSelection.openedFromList = null;
  }, [selectedId]);
  const root = useRef<HTMLDivElement>(null);
  const space = useWidth(root);
  const max = Math.max(LIST_WIDTH.min, Math.min(LIST_WIDTH.max, space - DETAIL_MIN));
  const width = Math.min(listWidth, max);
  const showList = !narrow || selectedId === null;
  const showDetail = !narrow || selectedId !== null;

  return (
    <div ref={root} className={`workspace ${narrow ? 'one-pane' : 'two-pane'}`}>
      {showList ? (
        <div
          id="reports-list-pane"
          className="workspace-list"
          style={narrow ? undefined : { width }}
        >
          <ReportsListPane
            selectedId={selectedId}
            narrow={narrow}
            onNewReport={() => setNewReport(true)}
          />
        </div>
      ) : null}
      {narrow ? null : (
        <PaneSeparator
          value={width}
          min={LIST_WIDTH.min}
          max={max}
          onChange={setListWidth}
          controls="reports-list-pane"
          label="Resize the reports list"
        />
      )}
      {showDetail ? (
        <section
          className="workspace-detail"
          aria-label="Open report"
          // Moving here from elsewhere focuses the report's heading, not the list's.
          data-focus-first={selectedId ? '' : undefined}
          // Which report the pane shows: a report is read before the pane turns to it, so for a
          // moment after the route changes the one before is still the pane's (tests wait on it).
          data-report-id={selectedId ?? undefined}
        >
          {narrow ? (
            <p className="breadcrumb">
              <RouteLink to={{ name: 'reports' }}>← All reports</RouteLink>
            </p>
          ) : null}
          {selectedId ? (
            // A report that fails to show leaves the list beside it usable.
            <ScreenBoundary key={selectedId} screen="The report">
              <Suspense fallback={<p className="loading">Loading report…</p>}>
                <ReportScreen reportId={selectedId} />
              </Suspense>
            </ScreenBoundary>
          ) : (
            <EmptyPane />
          )}
        </section>
      ) : null}
      {newReport ? <NewReportDialog onClose={() => setNewReport(false)} /> : null}
    </div>
  );
}
