import { useEffect, useRef, useState } from 'react';
import { REPORT_STATUSES } from '../../../../shared/api';
import { useReports } from '../../stores/reports';
import { useCommand } from '../../stores/commands';
import { STATUS_LABELS } from '../../lib/format';
import { pendingSearchFocus } from '../../app/useBridgeEvents';
import { ReportList } from './ReportList';

function SearchBox() {
  const search = useReports((s) => s.search);
  const setSearch = useReports((s) => s.setSearch);
  const [text, setText] = useState(search);
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (text === search) return;
    const t = setTimeout(() => setSearch(text), 200);
    return () => clearTimeout(t);
  }, [text, search, setSearch]);
  useCommand('focus-search', () => ref.current?.focus());
  useEffect(() => {
    if (pendingSearchFocus.value) {
      pendingSearchFocus.value = false;
      ref.current?.focus();
    }
  }, []);
  return (
    <input
      ref={ref}
      type="search"
      aria-label="Search reports"
      placeholder="Search title, asset, description…"
      value={text}
      onChange={(e) => setText(e.target.value)}
      className="search"
    />
  );
}

const count = (n: number): string => n.toLocaleString('en-US');

/** Each status with how many reports it holds (all of them: a search does not narrow it). */
function StatusFilter() {
  const statuses = useReports((s) => s.statuses);
  const counts = useReports((s) => s.counts);
  const toggleStatus = useReports((s) => s.toggleStatus);
  return (
    <fieldset className="filter-group inline">
      <legend>Status</legend>
      {REPORT_STATUSES.map((status) => (
        <label key={status} className="check">
          <input
            type="checkbox"
            checked={statuses.includes(status)}
            onChange={() => toggleStatus(status)}
          />
          {STATUS_LABELS[status] ?? status} ({count(counts[status] ?? 0)})
        </label>
      ))}
    </fieldset>
  );
}

/** "1,234 reports", or "12 of 1,234 reports" while a search or filter narrows the list. */
function Total() {
  const total = useReports((s) => s.total);
  const counts = useReports((s) => s.counts);
  const narrowed = useReports((s) => s.search.trim() !== '' || s.statuses.length > 0);
  const indexing = useReports((s) => s.indexing);
  if (total === null) return <>Loading…</>;
  const all = Object.values(counts).reduce((sum, n) => sum + n, 0);
  const text = narrowed ? `${count(total)} of ${count(all)} reports` : `${count(total)} reports`;
  return (
    <>
      {text}
      {indexing > 0 ? ` (indexing ${count(indexing)} more for search…)` : ''}
    </>
  );
}

export function ReportsScreen() {
  const total = useReports((s) => s.total);
  const reload = useReports((s) => s.reload);
  useEffect(() => {
    void reload();
  }, [reload]);
  return (
    <div className="screen reports-screen">
      <h1>Reports</h1>
      <div className="toolbar">
        <SearchBox />
        <span className="muted" aria-live="polite">
          <Total />
        </span>
      </div>
      <StatusFilter />
      {total === 0 ? (
        <p className="empty">No reports here yet. Open a program and choose "New report".</p>
      ) : null}
      <ReportList />
    </div>
  );
}
