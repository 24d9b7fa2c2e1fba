import { useState } from 'react';
import type { ProgramSummary } from '@shared/api';
import { bridge } from '../../bridge';
import { Dialog } from '../../components/Dialog';
import { reportError } from '../../stores/notices';
import { navigate } from '../../stores/router';
import { useReadOnlyReason } from '../../stores/session';
import { newReportBlocker } from '../programs/ProgramBadges';
import { useLoaded } from '../../lib/useLoaded';

/** Programs are listed 50 a page; more than this many pages is not a real account. */
const MAX_PAGES = 20;

export async function openPrograms(): Promise<ProgramSummary[]> {
  const all: ProgramSummary[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const answer = await bridge.listPrograms({ intake: ['open'], page, limit: 50 });
    all.push(...answer.programs);
    if (page >= answer.pages) break;
  }
  return all
    .filter((program) => newReportBlocker(program) === null)
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * "New report" from the reports screen (Ctrl/Cmd+N there): the programs that take a new report
 * now, one button each; choosing one starts the draft and opens it beside the list.
 */
export function NewReportDialog({ onClose }: { onClose(): void }) {
  const readOnly = useReadOnlyReason();
  const [programs, setPrograms] = useState<ProgramSummary[] | null>(null);
  const [busy, setBusy] = useState(false);
  useLoaded(openPrograms, setPrograms, [], (e) => {
    reportError(e);
    setPrograms([]);
  });

  async function start(program: ProgramSummary): Promise<void> {
    if (busy || readOnly) return;
    setBusy(true);
    try {
      const draft = await bridge.createDraft(program.id);
      onClose();
      navigate({ name: 'report', reportId: draft.reportId });
    } catch (e) {
      reportError(e);
      setBusy(false);
    }
  }

  return (
    <Dialog title="New report" onClose={onClose} className="new-report-dialog">
      <p id="new-report-help">
        Choose the program to report to. Only programs that take new reports now are listed.
      </p>
      {readOnly ? (
        <p className="disabled-reason" id="new-report-readonly">
          {readOnly}
        </p>
      ) : null}
      {programs === null ? (
        <p className="muted">Loading programs…</p>
      ) : programs.length === 0 ? (
        <p>No program takes new reports right now.</p>
      ) : (
        <ul aria-label="Open programs" className="program-picker">
          {programs.map((program, i) => (
            <li key={program.id}>
              <button
                type="button"
                disabled={busy || readOnly !== null}
                aria-describedby={readOnly ? 'new-report-readonly' : undefined}
                autoFocus={i === 0}
                onClick={() => void start(program)}
              >
                {program.name}
              </button>
              <span className="muted">{program.customer_name}</span>
            </li>
          ))}
        </ul>
      )}
      <div className="action-row">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
