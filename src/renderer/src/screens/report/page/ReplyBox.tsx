import { useCallback, useState, type DragEvent } from 'react';
import { LIMITS } from '@shared/api';
import { bridge, tokensForFiles, type PickedFile } from '../../../bridge';
import { CharCounter } from '../../../components/CharCounter';
import { useCommand } from '../../../stores/commands';
import { inputError } from '../../../lib/errors';
import { reportError } from '../../../stores/notices';
import { useReport } from '../../../stores/report';
import { useSession } from '../../../stores/session';
import { ReplyPreview } from './ReplyPreview';
import { ReasonedButton } from '../../../components/ReasonedButton';
import { useLasting } from '../../../lib/lasting';

/** A reply's wait is said once it has lasted this long (most replies reach the thread sooner). */
const WAIT_SAID_AFTER_MS = 300;

/** The reply: text, files by drag-and-drop or picker, sent with Ctrl/Cmd+Enter or the button. */
export function ReplyBox({
  reportId,
  disabledReason,
}: {
  reportId: string;
  disabledReason: string | null;
}) {
  const [body, setBody] = useState('');
  const [files, setFiles] = useState<PickedFile[]>([]);
  const [busy, setBusy] = useState(false);
  /** Where the last reply sent is, said while it waits in the outbox (typing on keeps it). */
  const [sent, setSent] = useState<string | null>(null);
  /** Whether the box was touched since that send: until then, the emptied box asks for nothing. */
  const [editedSinceSend, setEditedSinceSend] = useState(true);
  const waiting = useReport(
    (s) => !!s.detail?.outbox.some((e) => e.kind === 'post_message' && e.state !== 'done'),
  );
  const sayWhere = useLasting(!!sent && waiting, WAIT_SAID_AFTER_MS);
  // Sent with Ctrl+Enter from a box at the window's foot, the line stood below it (walk 21).
  const intoView = useCallback((line: HTMLSpanElement | null) => {
    line?.scrollIntoView({ block: 'nearest' });
  }, []);
  const [refused, setRefused] = useState(false);
  const [preview, setPreview] = useState(false);

  function add(picked: PickedFile[]): void {
    setFiles((now) => [...now, ...picked].slice(0, LIMITS.filesPerMessage));
  }

  async function addDropped(list: File[]): Promise<void> {
    const { picked, refused } = await tokensForFiles(list);
    for (const name of refused)
      reportError(inputError('file', `"${name}" cannot be read from disk.`));
    add(picked);
  }

  async function pick(): Promise<void> {
    try {
      add(await bridge.pickFiles());
    } catch (e) {
      reportError(e);
    }
  }

  const empty = body.trim() === '' && files.length === 0;
  const tooLong = body.length > LIMITS.messageBodyChars;
  // Every file is checked before anything is sent: one bad file holds back the whole reply, and
  // nothing of it is uploaded (the engine checks again and refuses the reply as a whole).
  const badFile = files.find((f) => fileProblem(f) !== null);
  const reason =
    disabledReason ??
    (tooLong
      ? 'The reply is too long.'
      : empty
        ? 'Write a reply or attach a file.'
        : badFile
          ? `Remove ${badFile.name}: it ${fileProblem(badFile) ?? ''}.`
          : null);

  async function send(): Promise<void> {
    if (reason || busy) return;
    setBusy(true);
    setRefused(false);
    try {
      await bridge.postMessage(reportId, { body, files: files.map((f) => f.token) });
      setBody('');
      setFiles([]);
      setEditedSinceSend(false);
      // Said as the draft's save line says it offline (walk 19 read three wordings of one wait).
      setSent(
        useSession.getState().status?.connectivity === 'offline'
          ? 'Reply kept on this computer; sent when the connection returns.'
          : 'Reply queued: it shows in the thread once the service has it.',
      );
      await useReport.getState().reload();
    } catch (e) {
      setRefused(true);
      reportError(e);
    } finally {
      setBusy(false);
    }
  }
  useCommand('send-reply', () => void send());

  const onDrop = (e: DragEvent): void => {
    if (!e.dataTransfer.types.includes('Files')) return;
    e.preventDefault();
    e.stopPropagation();
    if (!disabledReason) void addDropped(Array.from(e.dataTransfer.files));
  };

  return (
    <section
      aria-labelledby="reply-heading"
      className="reply"
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes('Files')) e.preventDefault();
      }}
      onDrop={onDrop}
    >
      <h2 id="reply-heading">Reply</h2>
      <textarea
        aria-label="Reply"
        // Checked in the OS's languages (main's spell checker); right-click for suggestions.
        spellCheck
        rows={5}
        value={body}
        disabled={!!disabledReason}
        onChange={(e) => {
          setBody(e.target.value);
          setEditedSinceSend(true);
          setRefused(false);
        }}
        aria-describedby="reply-count"
        placeholder="Answer the triage questions. Drop files here to attach them."
      />
      <CharCounter id="reply-count" length={body.length} max={LIMITS.messageBodyChars} />
      <button type="button" aria-pressed={preview} onClick={() => setPreview((on) => !on)}>
        Preview reply
      </button>
      {preview ? <ReplyPreview body={body} /> : null}
      {files.length > 0 ? (
        <ul aria-label="Reply files" className="reply-files">
          {files.map((f, i) => (
            <li key={`${f.token}-${i}`}>
              {f.name}
              {fileProblem(f) ? (
                <span className="field-error"> ({fileProblem(f)})</span>
              ) : null}{' '}
              <button
                type="button"
                onClick={() => {
                  setFiles((now) => now.filter((_, j) => j !== i));
                  setRefused(false);
                }}
              >
                Remove {f.name}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="action-row">
        <button type="button" disabled={!!disabledReason} onClick={() => void pick()}>
          Attach files to reply
        </button>
        <ReasonedButton
          className="primary"
          reason={reason}
          // The box a send emptied asks for nothing until touched: walk 20 read "Write a reply or
          // attach a file." beside the line that says where the reply is as a prompt to do it
          // again, and walk 21 saw it flash before that line came.
          reasonUnseen={!!sent && !editedSinceSend && !disabledReason}
          busy={busy}
          onClick={() => void send()}
        >
          Send reply
        </ReasonedButton>
        {sayWhere ? (
          <span role="status" ref={intoView}>
            {sent}
          </span>
        ) : null}
        {refused ? (
          <span role="status">
            Not sent: nothing of this reply was uploaded or queued. Fix it and send again.
          </span>
        ) : null}
      </div>
    </section>
  );
}

/** Why a file cannot be sent (the API takes 1 byte to 10 MiB), or null. */
function fileProblem(file: PickedFile): string | null {
  if (file.size < LIMITS.fileMinBytes) return 'is empty';
  if (file.size > LIMITS.fileBytes) return 'is over the 10 MiB limit';
  return null;
}
