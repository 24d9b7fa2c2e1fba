import { useEffect } from 'react';
import { usePrograms } from '../../stores/programs';
import { navigate } from '../../stores/router';
import { routeHash } from '../../app/routes';
import { formatTime, formatUsd } from '../../lib/format';
import { ProgramFilters } from './ProgramFilters';
import { ProgramBadges } from './ProgramBadges';
import type { ProgramSummary } from '../../../../shared/api';
import { countOf } from '../../../../shared/words/count';

function ProgramRow({ program }: { program: ProgramSummary }) {
  const route = { name: 'program', programId: program.id } as const;
  return (
    <li className="program-row">
      <div className="row-head">
        <a
          href={routeHash(route)}
          onClick={(e) => {
            e.preventDefault();
            navigate(route);
          }}
        >
          {program.name}
        </a>
        <ProgramBadges program={program} />
      </div>
      <div className="row-meta">
        <span>{program.customer_name}</span>
        <span>
          {formatUsd(program.reward_range.min)}–{formatUsd(program.reward_range.max)}
        </span>
        <span>Intake {program.intake}</span>
        <span>{program.asset_types.join(', ')}</span>
        <span>Updated {formatTime(program.updated_at)}</span>
      </div>
      <p className="row-summary">{program.summary}</p>
    </li>
  );
}

function Pagination() {
  const page = usePrograms((s) => s.page);
  const setQuery = usePrograms((s) => s.setQuery);
  if (!page) return null;
  const pages = Math.max(1, page.pages);
  return (
    <nav aria-label="Pagination" className="pagination">
      <button
        type="button"
        disabled={page.page <= 1}
        onClick={() => setQuery({ page: page.page - 1 })}
      >
        Previous page
      </button>
      <span>
        Page {page.page} of {pages}
      </span>
      <button
        type="button"
        disabled={page.page >= pages}
        onClick={() => setQuery({ page: page.page + 1 })}
      >
        Next page
      </button>
    </nav>
  );
}

export function ProgramsScreen() {
  const page = usePrograms((s) => s.page);
  const loading = usePrograms((s) => s.loading);
  const load = usePrograms((s) => s.load);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <div className="screen programs-screen">
      <h1>Programs</h1>
      <div className="with-sidebar">
        <ProgramFilters />
        <section className="main-column">
          <p className="muted" aria-live="polite">
            {loading && !page ? 'Loading programs…' : page ? countOf(page.total, 'program') : ''}
          </p>
          <ul aria-label="Programs" className="program-list">
            {page?.programs.map((p) => (
              <ProgramRow key={p.id} program={p} />
            ))}
          </ul>
          {page && page.programs.length === 0 ? (
            <p className="empty">
              No programs match these filters. The list fills after the first sync when you are
              online.
            </p>
          ) : null}
          <Pagination />
        </section>
      </div>
    </div>
  );
}
