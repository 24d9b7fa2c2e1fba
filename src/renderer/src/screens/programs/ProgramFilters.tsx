import { ASSET_TYPES, INTAKE_VALUES, REWARD_BANDS, UPDATED_FILTERS } from '@shared/api';
import type { ProgramQuery } from '@shared/bridge/views';
import { ASSET_LABELS, INTAKE_LABELS, REWARD_LABELS, UPDATED_LABELS } from '../../lib/format';
import { usePrograms } from '../../stores/programs';
import { ownValue } from '@shared/lookup/own';

type MultiKey = 'asset' | 'reward' | 'intake';

function countOf(
  counts: Record<string, Record<string, number>> | undefined,
  filter: string,
  option: string,
): string {
  const n = counts?.[filter]?.[option];
  return typeof n === 'number' ? ` (${n})` : '';
}

function toggle(list: string[] | undefined, value: string): string[] {
  const now = list ?? [];
  return now.includes(value) ? now.filter((v) => v !== value) : [...now, value];
}

function CheckboxGroup({
  legend,
  filter,
  options,
  labels,
}: {
  legend: string;
  filter: MultiKey;
  options: readonly string[];
  labels: Record<string, string>;
}) {
  const query = usePrograms((s) => s.query);
  const counts = usePrograms((s) => s.page?.counts);
  const setQuery = usePrograms((s) => s.setQuery);
  const selected = query[filter] ?? [];
  return (
    <fieldset className="filter-group">
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option} className="check">
          <input
            type="checkbox"
            checked={selected.includes(option)}
            onChange={() =>
              setQuery({ [filter]: toggle(query[filter], option) } as Partial<ProgramQuery>)
            }
          />
          {ownValue(labels, option) ?? option}
          {countOf(counts, filter, option)}
        </label>
      ))}
    </fieldset>
  );
}

export function ProgramFilters() {
  const query = usePrograms((s) => s.query);
  const counts = usePrograms((s) => s.page?.counts);
  const setQuery = usePrograms((s) => s.setQuery);
  const updated = query.updated ?? 'any';
  return (
    <aside className="filters" aria-label="Filters">
      <CheckboxGroup
        legend="Asset type"
        filter="asset"
        options={ASSET_TYPES}
        labels={ASSET_LABELS}
      />
      <CheckboxGroup
        legend="Top reward"
        filter="reward"
        options={REWARD_BANDS}
        labels={REWARD_LABELS}
      />
      <fieldset className="filter-group">
        <legend>Last update</legend>
        {UPDATED_FILTERS.map((option) => (
          <label key={option} className="check">
            <input
              type="radio"
              name="program-updated"
              checked={updated === option}
              onChange={() => setQuery({ updated: option })}
            />
            {ownValue(UPDATED_LABELS, option) ?? option}
            {countOf(counts, 'updated', option)}
          </label>
        ))}
      </fieldset>
      <CheckboxGroup
        legend="Intake"
        filter="intake"
        options={INTAKE_VALUES}
        labels={INTAKE_LABELS}
      />
    </aside>
  );
}
