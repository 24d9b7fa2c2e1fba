import { useEffect, useState, type ReactNode } from 'react';
import type { ProgramSummary } from '@shared/api';
import type { TemplateView } from '@shared/bridge/report-file-views';
import { bridge } from '../../bridge';
import { Dialog } from '../../components/Dialog';
import { messageOf } from '../../lib/errors';
import { reportError } from '../../stores/notices';
import { navigate } from '../../stores/router';
import { emitCommand } from '../../stores/commands';
import { useReadOnlyReason } from '../../stores/session';
import { openPrograms } from './NewReportDialog';
import { importedTemplatesText, savedTemplateText } from '../../lib/template-words';
import { useLoaded } from '../../lib/useLoaded';
import { useReport } from '../../stores/report';
import { focusOpenReport } from '../../lib/focus';

type Mode =
  | { kind: 'list' }
  | { kind: 'edit'; template: TemplateView | null }
  | { kind: 'use'; template: TemplateView };

/**
 * The researcher's own templates. Save the open draft's description as one (its asset,
 * title and program become placeholders), edit or delete them, and start a new report from one:
 * the program's headings stay the frame, the template fills their sections.
 */
export function TemplatesDialog({
  draftId,
  onClose,
}: {
  /** The draft open beside the list, if any: "Save as template" takes its description. */
  draftId: string | null;
  onClose(): void;
}) {
  const readOnly = useReadOnlyReason();
  // The program of the draft open beside the list: a new report from a template starts there.
  const draftProgramId = useReport((s) =>
    draftId && s.reportId === draftId ? (s.detail?.draft?.programId ?? null) : null,
  );
  const [templates, setTemplates] = useState<TemplateView[] | null>(null);
  const [mode, setModeState] = useState<Mode>({ kind: 'list' });
  const [message, setMessage] = useState<string | null>(null);
  // The list's control a step was opened from: back in the list, the focus returns to it, as
  // it would from a dialog (the step's own controls, which had it, are gone).
  const [returnTo, setReturnTo] = useState<string | null>(null);
  const setMode = (next: Mode, from?: string): void => {
    if (from !== undefined) setReturnTo(from);
    // The list's last word ("Saved template …") is not the step's.
    if (next.kind !== 'list') setMessage(null);
    setModeState(next);
  };
  useEffect(() => {
    if (mode.kind !== 'list' || returnTo === null) return;
    document
      .querySelector<HTMLElement>(`.templates-dialog [data-return-key="${CSS.escape(returnTo)}"]`)
      ?.focus();
  }, [mode, returnTo, templates]);

  const reload = async (): Promise<void> => {
    try {
      setTemplates(await bridge.listTemplates());
    } catch (e) {
      reportError(e);
    }
  };
  useLoaded(() => bridge.listTemplates(), setTemplates, [], reportError);

  async function saveFromDraft(name: string): Promise<void> {
    if (!draftId) return;
    try {
      // What was typed in the last moments is still in the editor: saved first, then read.
      await emitCommand('save-now').done;
      const detail = await bridge.getReport(draftId);
      const body = detail?.draft?.content.description ?? '';
      const saved = await bridge.saveTemplate({ name, body, fromReportId: draftId });
      setMessage(savedTemplateText(saved));
      await reload();
    } catch (e) {
      setMessage(messageOf(e));
    }
  }

  return (
    <Dialog
      title="Templates"
      onClose={onClose}
      // Escape in a step leaves the step, as its Back or Cancel does; in the list, the dialog.
      onEscape={mode.kind === 'list' ? undefined : () => setMode({ kind: 'list' })}
      className="templates-dialog"
    >
      {message ? <p role="status">{message}</p> : null}
      {mode.kind === 'list' ? (
        <>
          {draftId ? <SaveFromDraft onSave={(name) => void saveFromDraft(name)} /> : null}
          {templates === null ? <p className="muted">Loading…</p> : null}
          {templates?.length === 0 ? (
            <p className="muted">
              No templates yet. Open a draft and save its description as one, or write one here.
            </p>
          ) : null}
          <ul className="templates-list">
            {templates?.map((t) => (
              <li key={t.id}>
                <span className="template-name">{t.name}</span>
                <button
                  type="button"
                  disabled={readOnly !== null}
                  data-return-key={`use:${t.id}`}
                  onClick={() => setMode({ kind: 'use', template: t }, `use:${t.id}`)}
                >
                  New report from “{t.name}”
                </button>
                <button
                  type="button"
                  data-return-key={`edit:${t.id}`}
                  onClick={() => setMode({ kind: 'edit', template: t }, `edit:${t.id}`)}
                >
                  Edit “{t.name}”
                </button>
                <button
                  type="button"
                  onClick={() =>
                    void bridge
                      .deleteTemplate(t.id)
                      .then(reload)
                      .then(() => {
                        setMessage(`Deleted template “${t.name}”`);
                        // Its row is gone with the button: the focus goes on to the list's next control.
                        setReturnTo('new');
                      }, reportError)
                  }
                >
                  Delete “{t.name}”
                </button>
              </li>
            ))}
          </ul>
          <div className="action-row">
            <button
              type="button"
              data-return-key="new"
              onClick={() => setMode({ kind: 'edit', template: null }, 'new')}
            >
              New template
            </button>
            <button
              type="button"
              disabled={!templates?.length}
              onClick={() =>
                void bridge.exportTemplates().then((r) => {
                  if (r) setMessage(`Exported ${r.count} template(s) to ${r.savedTo}`);
                }, reportError)
              }
            >
              Export templates…
            </button>
            <button
              type="button"
              onClick={() =>
                void bridge.importTemplates({ pick: 'files' }).then(async (r) => {
                  if (!r) return;
                  setMessage(
                    r.problems.length > 0
                      ? `Nothing was imported: ${r.problems
                          .map(
                            (p) =>
                              `${p.file}${p.line > 0 ? ` line ${p.line}` : ''}: ${p.field}: ${p.message}`,
                          )
                          .join('; ')}`
                      : importedTemplatesText(r.created),
                  );
                  await reload();
                }, reportError)
              }
            >
              Import templates…
            </button>
            <button type="button" onClick={onClose}>
              Close
            </button>
          </div>
        </>
      ) : null}
      {mode.kind === 'edit' ? (
        <EditTemplate
          template={mode.template}
          onDone={(text) => {
            if (text) setMessage(text);
            setMode({ kind: 'list' });
            void reload();
          }}
        />
      ) : null}
      {mode.kind === 'use' ? (
        <UseTemplate
          template={mode.template}
          preferredProgramId={draftProgramId}
          onStarted={(reportId) => {
            onClose();
            navigate({ name: 'report', reportId });
            // Not back to "Templates…" in the list: the researcher goes on in the new report.
            focusOpenReport(reportId);
          }}
          onBack={() => setMode({ kind: 'list' })}
        />
      ) : null}
    </Dialog>
  );
}

function SaveFromDraft({ onSave }: { onSave(name: string): void }) {
  const [name, setName] = useState('');
  return (
    <form
      className="template-form"
      onSubmit={(e) => {
        e.preventDefault();
        onSave(name);
      }}
    >
      <label>
        Template name
        <input value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <button type="submit">Save open draft as template</button>
    </form>
  );
}

function EditTemplate({
  template,
  onDone,
}: {
  template: TemplateView | null;
  onDone(message: string | null): void;
}) {
  const [name, setName] = useState(template?.name ?? '');
  const [body, setBody] = useState(
    template?.body ?? '## Steps to reproduce\n\n1. Open {{asset}}\n',
  );
  const [error, setError] = useState<string | null>(null);
  return (
    <TemplateForm
      submit={() =>
        bridge
          .saveTemplate({ ...(template ? { id: template.id } : {}), name, body })
          .then((saved) => onDone(savedTemplateText(saved)))
      }
      submitLabel="Save template"
      cancelLabel="Cancel"
      onCancel={() => onDone(null)}
      error={error}
      onError={setError}
    >
      <label>
        Template name
        {/* The step opens in a dialog open already: React's focus on mount is the one wanted. */}
        <input autoFocus value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        Template text
        <textarea rows={12} value={body} onChange={(e) => setBody(e.target.value)} />
      </label>
      <p className="muted">
        Placeholders: {'{{asset}}'}, {'{{program}}'}, {'{{program_id}}'}, {'{{title}}'},{' '}
        {'{{date}}'}. Sections under the program’s headings fill those headings.
      </p>
    </TemplateForm>
  );
}

function UseTemplate({
  template,
  preferredProgramId,
  onStarted,
  onBack,
}: {
  template: TemplateView;
  /** The program chosen at first: the open draft's, if it takes reports; none otherwise. */
  preferredProgramId: string | null;
  onStarted(reportId: string): void;
  onBack(): void;
}) {
  const [programs, setPrograms] = useState<ProgramSummary[] | null>(null);
  const [programId, setProgramId] = useState('');
  const [title, setTitle] = useState('');
  const [asset, setAsset] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    openPrograms().then(
      (found) => {
        setPrograms(found);
        // Never the list's first program by default: a report filed under a program the
        // researcher did not choose goes to the wrong triage team.
        const preferred = found.find((p) => p.id === preferredProgramId);
        setProgramId((current) => current || (preferred?.id ?? ''));
      },
      (e: unknown) => setError(messageOf(e)),
    );
  }, [preferredProgramId]);
  return (
    <TemplateForm
      submit={() =>
        bridge
          .startFromTemplate(programId, template.id, { title, asset })
          .then((draft) => onStarted(draft.reportId))
      }
      submitLabel="Start report"
      canSubmit={programId !== ''}
      cancelLabel="Back"
      onCancel={onBack}
      error={error}
      onError={setError}
    >
      <p>New report from “{template.name}”</p>
      <label>
        Program
        <select autoFocus value={programId} onChange={(e) => setProgramId(e.target.value)}>
          <option value="" disabled>
            Choose a program
          </option>
          {programs?.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Report title
        <input value={title} onChange={(e) => setTitle(e.target.value)} />
      </label>
      <label>
        Report asset
        <input value={asset} onChange={(e) => setAsset(e.target.value)} spellCheck={false} />
      </label>
    </TemplateForm>
  );
}

/**
 * The form of the edit and use steps: submitting runs `submit` (a bridge call), whose failure
 * shows in the form, under its fields; the second button leaves the step.
 */
function TemplateForm({
  submit,
  submitLabel,
  canSubmit = true,
  cancelLabel,
  onCancel,
  error,
  onError,
  children,
}: {
  submit(): Promise<void>;
  submitLabel: string;
  canSubmit?: boolean;
  cancelLabel: string;
  onCancel(): void;
  error: string | null;
  onError(message: string): void;
  children: ReactNode;
}) {
  return (
    <form
      className="template-form"
      onSubmit={(e) => {
        e.preventDefault();
        submit().catch((err: unknown) => onError(messageOf(err)));
      }}
    >
      {children}
      {error ? <p role="alert">{error}</p> : null}
      <div className="action-row">
        <button type="submit" className="primary" disabled={!canSubmit}>
          {submitLabel}
        </button>
        <button type="button" onClick={onCancel}>
          {cancelLabel}
        </button>
      </div>
    </form>
  );
}
