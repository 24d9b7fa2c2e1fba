import { useState } from 'react';
import { bridge } from '../../../bridge';
import { Dialog } from '../../../components/Dialog';
import { messageOf } from '../../../lib/errors';
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
  const [error, setError] = useState<string | null>(null);

  async function save(): Promise<void> {
    if (!body) return;
    try {
      const saved = await bridge.saveTemplate({ name, body: body.text, fromReportId: reportId });
      setBody(null);
      setMessage(savedTemplateText(saved));
    } catch (e) {
      setError(messageOf(e));
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
            {'{{program}}'}.
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
              <input value={name} onChange={(e) => setName(e.target.value)} autoFocus />
            </label>
            {error ? <p role="alert">{error}</p> : null}
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
