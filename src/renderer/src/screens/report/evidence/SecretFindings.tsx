import { useCallback, useEffect, useRef, useState } from 'react';
import type { SecretFindingView, SecretScanView } from '@shared/bridge/evidence-views';
import { redactionMark } from '@shared/evidence/redaction-mark';
import { bridge, onBridge } from '../../../bridge';
import { formatBytes } from '../../../lib/format';
import { reportError } from '../../../stores/notices';
import { useBusyAction } from '../../../components/useBusyAction';
import { useReport } from '../../../stores/report';
import { useLoadedAfterPaint } from '../../../lib/useLoaded';
import { HeldByCheck } from '../OutboxPanel';

interface SecretFindingsProps {
  reportId: string;
  /** Runs before a redaction changes the draft (the editor saves what is typed first). */
  beforeChange?: () => Promise<void>;
  readOnly: boolean;
  /**
   * Told whether a finding not kept is in the draft's own fields: then every save of the draft is
   * held back until it is redacted or kept, the next change's included.
   */
  onFieldsHeld?: (held: boolean) => void;
  /**
   * Selects a finding of the description in the editor (its place is a line of the Markdown,
   * which the editor does not show); false when the editor does not hold it as it was scanned.
   */
  onShow?: (finding: SecretFindingView) => Promise<boolean>;
  /** The autosave's count of saves that found the text back at what was saved. */
  backToSaved?: number;
}

function Finding({
  finding,
  busy,
  readOnly,
  onRedact,
  onKeep,
  onShow,
  notShown,
}: {
  finding: SecretFindingView;
  busy: boolean;
  readOnly: boolean;
  onRedact(): void;
  onKeep(): void;
  onShow: (() => void) | null;
  /** Show found nothing: the text changed since the check read it. */
  notShown: boolean;
}) {
  return (
    <li
      aria-label={`${finding.label} in ${finding.where}`}
      className={finding.kept ? 'finding kept' : 'finding'}
    >
      <span className="finding-what">
        <strong>{finding.label}</strong>{' '}
        <span className="muted">
          {finding.where}
          {finding.occurrences > 1 ? ` (${finding.occurrences} times)` : ''}
        </span>
      </span>
      <code className="finding-preview">{finding.preview}</code>
      {finding.kept ? <span className="badge">Kept on purpose</span> : null}
      <span className="finding-actions">
        {onShow ? (
          <button type="button" onClick={onShow}>
            Show
          </button>
        ) : null}
        <button type="button" disabled={busy || readOnly} onClick={onRedact}>
          Redact
        </button>
        <button
          type="button"
          disabled={busy || readOnly}
          aria-pressed={finding.kept}
          onClick={onKeep}
        >
          Keep
        </button>
      </span>
      {notShown ? (
        <span role="status" className="muted">
          Not in the text as it is now: the check runs again after the next save.
        </span>
      ) : null}
    </li>
  );
}

/**
 * "Credentials check": what the scan found in the draft, its text evidence
 * and its queued replies, each with its place and kind; Redact replaces it with
 * `[REDACTED:<kind>]`, Keep lets it go on purpose (remembered). Nothing holding an open finding
 * is sent. Shown only when there is something to say.
 */
interface ScanProgress {
  name: string;
  doneBytes: number;
  size: number;
}

/** A large file's scan under way: its name, a bar and how much is read. */
function ScanningFiles({ files }: { files: ScanProgress[] }) {
  return (
    <ul aria-label="Files being scanned" className="findings-list">
      {files.map((f) => (
        <li key={f.name} className="finding">
          <span className="finding-what">
            Scanning “{f.name}” for credentials: {Math.floor((100 * f.doneBytes) / f.size)}% (
            {formatBytes(f.doneBytes)} of {formatBytes(f.size)})
          </span>
          <progress aria-label={`Scanning ${f.name}`} max={f.size} value={f.doneBytes} />
        </li>
      ))}
    </ul>
  );
}

export function SecretFindings({
  reportId,
  beforeChange,
  readOnly,
  onFieldsHeld,
  onShow,
  backToSaved = 0,
}: SecretFindingsProps) {
  const detail = useReport((s) => s.detail);
  /**
   * The finding Show did not find in the text, where the check had placed it. Said while no save
   * has found the text back at what was saved since (`at`): undone before the deletion was saved,
   * the text is the one the check read, and no new answer of the check comes to end the line
   * (walk 20 saw it stand over the token Undo had brought back).
   */
  const [notShown, setNotShown] = useState<
    (Pick<SecretFindingView, 'id' | 'line' | 'column'> & { at: number }) | null
  >(null);
  const [scan, setScan] = useState<SecretScanView | null>(null);
  const [busy, runBusy] = useBusyAction();
  const [scanning, setScanning] = useState<Map<string, ScanProgress>>(new Map());
  // The last redaction, said where its button was: the finding (and, with the last one, the whole
  // section) leaves the page, and the keyboard focus with it. Said from the click on ("Redacting…"):
  // the button, disabled while the draft is saved and redacted, dropped the focus to the page's
  // body for that time (a walk, about 250 ms).
  const [redacted, setRedacted] = useState<{
    reportId: string;
    count: number;
    /** The marks the text now holds, as written (`[REDACTED:jwt]`), not a bare "[REDACTED:…]". */
    marks: string[];
    done: boolean;
    /** The findings left once it was done: a finding not among them is news the line predates. */
    left?: readonly string[];
  } | null>(null);
  const redactedHere = redacted?.reportId === reportId ? redacted : null;
  // A credential found after the redaction (another token typed or pasted) ends its line: above
  // the new finding, "Redacted the credential" read as if that one had been (walk 17).
  const takeScan = useCallback((next: SecretScanView) => {
    setScan(next);
    // "Not in the text as it is now" says the check has not run since: a new answer of the check
    // (the finding gone, moved, or back after an undo) ends it, not the next press of Show.
    setNotShown((shown) =>
      shown &&
      next.findings.some(
        (f) => f.id === shown.id && f.line === shown.line && f.column === shown.column,
      )
        ? shown
        : null,
    );
    setRedacted((line) =>
      line?.left && next.findings.some((f) => !line.left?.includes(f.id)) ? null : line,
    );
  }, []);
  // While a redaction runs, its line takes the focus wherever it is drawn (the section changes
  // shape when the last finding goes); not later, when a reload draws it again under the typing.
  const lineTakesFocus = useRef(false);
  const said = useCallback((line: HTMLParagraphElement | null) => {
    if (line && lineTakesFocus.current) line.focus();
  }, []);

  useEffect(
    () =>
      onBridge('scan-progress', (p) => {
        if (p.reportId !== reportId) return;
        setScanning((before) => {
          const next = new Map(before);
          if (p.doneBytes >= p.size) next.delete(p.fileId);
          else next.set(p.fileId, { name: p.name, doneBytes: p.doneBytes, size: p.size });
          return next;
        });
      }),
    [reportId],
  );

  useLoadedAfterPaint(
    () => bridge.scanEvidence(reportId),
    takeScan,
    [reportId, detail],
    reportError,
  );

  const fieldsHeld = !!scan?.findings.some((f) => !f.kept && f.place.kind === 'field');
  useEffect(() => onFieldsHeld?.(fieldsHeld), [fieldsHeld, onFieldsHeld]);

  const act = (change: () => Promise<SecretScanView>, touchesDraft: boolean): Promise<void> =>
    runBusy(async () => {
      if (touchesDraft) await beforeChange?.();
      setScan(await change());
      await useReport.getState().reload();
    });
  const redact = async (ids: string[]): Promise<void> => {
    const count = ids.length;
    const marks = [
      ...new Set(
        (scan?.findings ?? []).filter((f) => ids.includes(f.id)).map((f) => redactionMark(f.kind)),
      ),
    ];
    lineTakesFocus.current = true;
    setRedacted({ reportId, count, marks, done: false });
    try {
      await act(async () => {
        try {
          const after = await bridge.redactFindings(reportId, ids);
          const left = after.findings.map((f) => f.id);
          setRedacted({ reportId, count, marks, done: true, left });
          return after;
        } catch (e) {
          // A failure is the notice's to say; the focus goes back to the button.
          setRedacted(null);
          throw e;
        }
      }, true);
    } finally {
      lineTakesFocus.current = false;
    }
  };
  const what = redactedHere?.count === 1 ? 'the credential' : `${redactedHere?.count} credentials`;
  const redactedLine = redactedHere ? (
    <p ref={said} tabIndex={-1} role="status" className="redacted-said">
      {redactedHere.done
        ? `Redacted ${what}: the text now says ${redactedHere.marks.join(', ') || '[REDACTED:…]'} in ${redactedHere.count === 1 ? 'its place' : 'their places'}.`
        : `Redacting ${what}…`}
    </p>
  ) : null;

  const underWay = [...scanning.values()];
  if (
    underWay.length > 0 &&
    (!scan || (scan.findings.length === 0 && scan.notScanned.length === 0))
  )
    return (
      <section aria-labelledby="findings-heading" className="card findings">
        <h2 id="findings-heading">Credentials check</h2>
        <ScanningFiles files={underWay} />
      </section>
    );
  if (!scan || (scan.findings.length === 0 && scan.notScanned.length === 0)) {
    return redactedLine ? (
      <section aria-labelledby="findings-heading" className="card findings">
        <h2 id="findings-heading">Credentials check</h2>
        {redactedLine}
        <p className="muted">Nothing else was found.</p>
      </section>
    ) : null;
  }
  const open = scan.findings.filter((f) => !f.kept);
  return (
    <section aria-labelledby="findings-heading" className="card findings">
      <h2 id="findings-heading">Credentials check</h2>
      {underWay.length > 0 ? <ScanningFiles files={underWay} /> : null}
      {redactedLine}
      <p className={open.length > 0 ? 'callout' : 'muted'}>
        {open.length > 0
          ? `${open.length} possible credential${open.length === 1 ? '' : 's'} found. Nothing that holds ${open.length === 1 ? 'it' : 'them'} is sent until each is redacted or kept on purpose.`
          : 'Every finding is kept on purpose.'}
      </p>
      <HeldByCheck entries={detail?.outbox ?? []} readOnly={readOnly} />
      {scan.findings.length > 0 ? (
        <ul aria-label="Findings" className="findings-list">
          {scan.findings.map((f) => (
            <Finding
              key={f.id}
              finding={f}
              busy={busy}
              readOnly={readOnly}
              onRedact={() => void redact([f.id])}
              onKeep={() => void act(() => bridge.keepFinding(reportId, f.id, !f.kept), false)}
              onShow={
                onShow && f.place.kind === 'field' && f.place.field === 'description'
                  ? () =>
                      void onShow(f).then((shown) =>
                        setNotShown(
                          shown
                            ? null
                            : { id: f.id, line: f.line, column: f.column, at: backToSaved },
                        ),
                      )
                  : null
              }
              notShown={notShown?.id === f.id && notShown.at === backToSaved}
            />
          ))}
        </ul>
      ) : null}
      {open.length > 1 ? (
        <div className="action-row">
          <button
            type="button"
            disabled={busy || readOnly}
            onClick={() => void redact(open.map((f) => f.id))}
          >
            Redact all
          </button>
        </div>
      ) : null}
      {scan.notScanned.length > 0 ? (
        <p className="muted">
          Not scanned (not text):{' '}
          {scan.notScanned.map((f) => `${f.name} (${formatBytes(f.size)})`).join(', ')}. Check them
          yourself before they are sent.
        </p>
      ) : null}
    </section>
  );
}
