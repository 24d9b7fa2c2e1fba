import { useId, useState } from 'react';
import { bridge } from '../../../bridge';
import { Dialog } from '../../../components/Dialog';
import { fieldErrorOf, messageOf } from '../../../lib/errors';
import { savedTemplateText } from '../../../lib/template-words';

/**
 * "Save as template…" under the description: the part the researcher selected (read when the
 * button is pressed; ProseMirror keeps the selection while the focus is on the button), else the
 * whole description, saved as a named personal template. The draft's own asset, title and program
 * name become placeholders (the engine's `saveTemplate` with `fromReportId`).
 */
export function SaveAsTemplate({
  reportId,
  selection,
  whole,
}: {
  reportId: string;
  /** The selected part's Markdown, or null. */
  selection(): string | null;
  /** The whole description as it is now. */
  whole(): string;
}) {
  const [body, setBody] = useState<{ text: string; part: boolean } | null>(null);
  const [name, setName] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  /** What the save refused; `named` when it names the template's name (shown under its input). */
  const [error, setError] = useState<{ text: string; named: boolean } | null>(null);
  const errorId = useId();

  async function save(): Promise<void> {
    if (!body) return;
    try {
      const saved = await bridge.saveTemplate({ name, body: body.text, fromReportId: reportId });
      setBody(null);
      setMessage(savedTemplateText(saved));
    } catch (e) {
      const field = fieldErrorOf(e);
      setError(
        field?.field === 'name'
          ? { text: `Template name: ${field.message}`, named: true }
          : { text: messageOf(e), named: false },
      );
    }
  }

  return (
    <>
      <button
        type="button"
        onClick={() => {
          const part = selection();
          setBody({ text: part ?? whole(), part: part !== null });
          setName('');
          setError(null);
          setMessage(null);
        }}
      >
        Save as template…
      </button>
      {message ? (
        <span role="status" className="muted">
          {message}
        </span>
      ) : null}
      {body ? (
        <Dialog title="Save as template" onClose={() => setBody(null)}>
          <p>
            {body.part
              ? `The selected part (${body.text.length.toLocaleString('en-US')} characters) becomes a template.`
              : 'Nothing is selected: the whole description becomes a template.'}{' '}
            The draft’s asset, title and program name in it become {'{{asset}}'}, {'{{title}}'} and{' '}
            {'{{program}}'} where they stand whole; code (a request, a payload) is kept as written.
          </p>
          <form
            className="template-form"
            onSubmit={(e) => {
              e.preventDefault();
              void save();
            }}
          >
            <label>
              Template name
              <input
                value={name}
                onChange={(e) => setName(e.target.value)}
                aria-invalid={error?.named ? true : undefined}
                aria-describedby={error?.named ? errorId : undefined}
                autoFocus
              />
            </label>
            {error ? (
              <p id={errorId} role="alert" className={error.named ? 'field-error' : undefined}>
                {error.text}
              </p>
            ) : null}
            <div className="action-row">
              <button type="submit">Save template</button>
              <button type="button" onClick={() => setBody(null)}>
                Cancel
              </button>
            </div>
          </form>
        </Dialog>
      ) : null}
    </>
  );
}
