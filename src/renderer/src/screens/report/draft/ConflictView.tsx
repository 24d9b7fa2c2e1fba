import { useState } from 'react';
import type { ConflictChoice, DraftField, FieldConflict } from '@shared/bridge/views';
import { bridge } from '../../../bridge';
import { useBusyAction } from '../../../components/useBusyAction';
import { useReport } from '../../../stores/report';
import { ReasonedButton } from '../../../components/ReasonedButton';

const FIELD_TITLES: Record<DraftField, string> = {
  title: 'Title',
  asset: 'Asset',
  description: 'Description',
  cvss_vector: 'CVSS vector',
};

type Choice = { kind: 'ours' } | { kind: 'theirs' } | { kind: 'custom'; text: string };

function toConflictChoice(c: Choice): ConflictChoice {
  return c.kind === 'custom' ? { custom: c.text } : c.kind;
}

const SIDES = {
  ours: { heading: 'Your version', keep: 'Keep mine' },
  theirs: { heading: 'Server version', keep: 'Keep theirs' },
} as const;

/** One version of a field in conflict, and the button that keeps it. */
function ConflictSide({
  side,
  text,
  choice,
  onChoose,
}: {
  side: keyof typeof SIDES;
  text: string;
  choice: Choice | undefined;
  onChoose(c: Choice): void;
}) {
  const chosen = choice?.kind === side;
  return (
    <div className={`conflict-side${chosen ? ' chosen' : ''}`}>
      <h4>{SIDES[side].heading}</h4>
      <pre className="conflict-text">{text || '(empty)'}</pre>
      <button type="button" aria-pressed={chosen} onClick={() => onChoose({ kind: side })}>
        {SIDES[side].keep}
      </button>
    </div>
  );
}

function FieldConflictView({
  conflict,
  choice,
  onChoose,
}: {
  conflict: FieldConflict;
  choice: Choice | undefined;
  onChoose(c: Choice): void;
}) {
  const name = FIELD_TITLES[conflict.field];
  const editing = choice?.kind === 'custom';
  return (
    <fieldset className="conflict-field">
      <legend>{name}</legend>
      <div className="conflict-sides">
        <ConflictSide side="ours" text={conflict.ours} choice={choice} onChoose={onChoose} />
        <ConflictSide side="theirs" text={conflict.theirs} choice={choice} onChoose={onChoose} />
      </div>
      {editing ? (
        <label className="field">
          <span>Edit {name}</span>
          <textarea
            rows={conflict.field === 'description' ? 10 : 2}
            value={choice.text}
            onChange={(e) => onChoose({ kind: 'custom', text: e.target.value })}
          />
        </label>
      ) : (
        <button
          type="button"
          className="link-button"
          onClick={() => onChoose({ kind: 'custom', text: conflict.ours })}
        >
          Edit {name} by hand
        </button>
      )}
    </fieldset>
  );
}

/** Both versions of each field changed on both sides, side by side; the user chooses or edits. */
export function ConflictView({
  reportId,
  conflicts,
  disabledReason,
  beforeSave,
}: {
  reportId: string;
  conflicts: FieldConflict[];
  disabledReason: string | null;
  beforeSave(): Promise<void>;
}) {
  const [choices, setChoices] = useState<Partial<Record<DraftField, Choice>>>({});
  const [busy, runBusy] = useBusyAction();
  const missing = conflicts.filter((c) => !choices[c.field]).length;
  const save = (): Promise<void> =>
    runBusy(async () => {
      await beforeSave();
      const out: Partial<Record<DraftField, ConflictChoice>> = {};
      for (const c of conflicts) {
        const choice = choices[c.field];
        if (choice) out[c.field] = toConflictChoice(choice);
      }
      await bridge.resolveConflicts(reportId, out);
      setChoices({});
      await useReport.getState().reload();
    });
  const reason =
    disabledReason ??
    (missing > 0 ? `Choose a version for ${missing} more field${missing > 1 ? 's' : ''}.` : null);
  return (
    <section aria-labelledby="conflicts-heading" className="conflicts card">
      <h2 id="conflicts-heading">Conflicts</h2>
      <p>
        This draft was changed elsewhere while you edited it. For each field below, keep your
        version, the server's, or edit a combined text. Your other changes are already merged.
      </p>
      {conflicts.map((c) => (
        <FieldConflictView
          key={c.field}
          conflict={c}
          choice={choices[c.field]}
          onChoose={(choice) => setChoices((s) => ({ ...s, [c.field]: choice }))}
        />
      ))}
      <div className="action-row">
        <ReasonedButton className="primary" reason={reason} busy={busy} onClick={() => void save()}>
          Save resolution
        </ReasonedButton>
      </div>
    </section>
  );
}
