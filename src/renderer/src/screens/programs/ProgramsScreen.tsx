import { useCallback, useEffect, useState } from 'react';
import { SearchInput, useSearchAfterTyping } from '../../components/SearchInput';
import { isNarrowed, usePrograms } from '../../stores/programs';
import { navigate } from '../../stores/router';
import { routeHash } from '../../lib/routes';
import { assetTypeLabel, formatTime, formatUsd } from '../../lib/format';
import { ProgramFilters } from './ProgramFilters';
import { ProgramBadges } from './ProgramBadges';
import type { ProgramSummary } from '@shared/api';
import { countOf } from '@shared/words/count';

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
        <span>{program.asset_types.map(assetTypeLabel).join(', ')}</span>
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

/** Search by name (or customer, or id) in the local copy, as the researcher types. */
function ProgramSearch() {
  const search = usePrograms((s) => s.query.search ?? '');
  const setQuery = usePrograms((s) => s.setQuery);
  const [text, setText] = useState(search);
  const [shown, setShown] = useState(search);
  // "Clear filters" empties the search: the box follows.
  if (search !== shown) {
    setShown(search);
    if (search === '') setText('');
  }
  const commit = useCallback((typed: string) => setQuery({ search: typed }), [setQuery]);
  useSearchAfterTyping(text.trim(), search, commit);
  return (
    <SearchInput
      label="Search programs"
      placeholder="Search by program or company name…"
      className="search program-search"
      text={text}
      onType={setText}
    />
  );
}

function ClearFilters() {
  const narrowed = usePrograms((s) => isNarrowed(s.query));
  const clearFilters = usePrograms((s) => s.clearFilters);
  if (!narrowed) return null;
  return (
    <button type="button" className="link-button" onClick={clearFilters}>
      Clear filters
    </button>
  );
}

/**
 * The search and the list come first (in the page and for the keyboard: two Tabs from the heading
 * to the first program); the filters sit beside the list, after it.
 */
export function ProgramsScreen() {
  const page = usePrograms((s) => s.page);
  const loading = usePrograms((s) => s.loading);
  const load = usePrograms((s) => s.load);
  const narrowed = usePrograms((s) => isNarrowed(s.query));
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <div className="screen programs-screen">
      <h1>Programs</h1>
      <div className="with-sidebar filters-after">
        <section className="main-column">
          <div className="list-tools">
            <ProgramSearch />
            <span className="muted" aria-live="polite">
              {loading && !page ? 'Loading programs…' : page ? countOf(page.total, 'program') : ''}
            </span>
            <ClearFilters />
          </div>
          <ul aria-label="Programs" className="program-list">
            {page?.programs.map((p) => (
              <ProgramRow key={p.id} program={p} />
            ))}
          </ul>
          {page && page.programs.length === 0 ? (
            <p className="empty">
              {narrowed
                ? 'No programs match this search and these filters.'
                : 'No programs yet. The list fills after the first sync when you are online.'}
            </p>
          ) : null}
          <Pagination />
        </section>
        <ProgramFilters />
      </div>
    </div>
  );
}
