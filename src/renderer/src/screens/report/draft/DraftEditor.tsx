import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { LIMITS } from '@shared/api';
import type {
  DraftField,
  DraftView,
  EvidenceView,
  OutboxEntryView,
  ReportDetailView,
} from '@shared/bridge/views';
import { insertFileLinkAt } from '@shared/rules/file-link-insertion';
import { bridge, tokensForFiles, type PickedFile } from '../../../bridge';
import { CharCounter } from '../../../components/CharCounter';
import { describeVector, scoreText } from '../../../lib/cvss-state';
import { fieldIssues } from '../../../lib/draft-issues';
import { otherReportsFiles } from '../../../lib/foreign-links';
import { useCommand } from '../../../stores/commands';
import { inputError } from '../../../lib/errors';
import { focusIsLost } from '../../../lib/focus';
import { reportError } from '../../../stores/notices';
import { requestExternal } from '../../../stores/external-link';
import { useReport } from '../../../stores/report';
import { useReadOnlyReason, useSession } from '../../../stores/session';
import { ConflictView } from './ConflictView';
import { CvssCalculator } from './CvssCalculator';
import { DescriptionEditor, type DescriptionHandle } from '../../../editor/DescriptionEditor';
import { EvidenceList } from './EvidenceList';
import { SubmitChecklist } from './SubmitChecklist';
import { DiscardDraft } from './DiscardDraft';
import { PolicyChangedNotice } from './PolicyChangedNotice';
import { useDraftAutosave } from './useDraftAutosave';
import type { LineField } from './autosave';
import { SaveAsTemplate } from './SaveAsTemplate';
import { ScopeHint } from '../evidence/ScopeHint';
import { SecretFindings } from '../evidence/SecretFindings';
import {
  HttpPasteZone,
  httpEvidenceFiles,
  importHttpItems,
  unreadEvidenceFiles,
  type DropPoint,
  type HttpItem,
} from '../evidence/http-import';
import { OutboxPanel } from '../OutboxPanel';
import { RouteLink } from '../../../components/RouteLink';

function FieldError({ id, messages }: { id: string; messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <p id={id} className="field-error">
      {messages.join(' ')}
    </p>
  );
}

/** A link in the description may come from a draft written elsewhere: ask first, as everywhere. */
function openExternal(href: string): void {
  requestExternal(href);
}

/** Title, asset, CVSS, description (Milkdown), evidence, conflicts and submit of one draft. */
export function DraftEditor({
  detail,
  draft,
  focusTitle = true,
}: {
  detail: ReportDetailView;
  draft: DraftView;
  /** False when the reports list opened it and keeps the keyboard focus. */
  focusTitle?: boolean;
}) {
  const reportId = detail.id;
  const readOnly = useReadOnlyReason();
  const submit = detail.outbox.find((e) => e.kind === 'submit' && e.state !== 'done');
  const submitting = !!submit;
  const locked = readOnly ?? (submit ? submitLockReason(submit) : null);
  // Locked by a submit on its way: the save line says so, and why nothing can be typed (a line of
  // its own came in above the Title, 33 px, and said "Submitted" a second time; a walk).
  const lockedBySubmit = !readOnly && submit !== undefined && submit.state !== 'parked';

  const [calculatorOpen, setCalculatorOpen] = useState(false);
  const [checklistOpen, setChecklistOpen] = useState(false);
  const [attachBusy, setAttachBusy] = useState(false);
  const [httpProblems, setHttpProblems] = useState<string[]>([]);
  const [heldByCheck, setHeldByCheck] = useState(false);
  const description = useRef<DescriptionHandle | null>(null);
  const { autosave, snapshot } = useDraftAutosave(reportId, draft, !!readOnly, description);
  const { fields, descriptionLength, issues, saveState } = snapshot;
  const offline = useSession((s) => s.status?.connectivity === 'offline');
  const flush = useCallback(() => autosave.flush(), [autosave]);
  const stored = draft.content.description;
  const notSendable = useMemo(() => otherReportsFiles(stored, reportId), [stored, reportId]);
  const setField = (name: LineField, value: string): void => autosave.setField(name, value);

  // Returned: "Save open draft as template" waits for it before it reads the stored draft.
  useCommand('save-now', flush);

  // Submitted, the checklist closes and its opener ("Check and submit") is disabled: the focus,
  // left to the window, goes to the line that says why the draft is locked.
  const lockedLine = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (!submitting || checklistOpen) return;
    // Looked at for a few frames: the closing dialog lets go of the focus as it goes.
    let frames = 0;
    let frame = 0;
    const place = (): void => {
      // "Check and submit" may have had it back before the lock disabled it.
      if (focusIsLost()) lockedLine.current?.focus();
      else if (document.activeElement?.closest('dialog') && ++frames < 10)
        frame = requestAnimationFrame(place);
    };
    frame = requestAnimationFrame(place);
    return () => cancelAnimationFrame(frame);
  }, [submitting, checklistOpen]);

  async function attachDropped(
    files: File[],
    at: { offset: number; markdown: string } | null,
  ): Promise<void> {
    if (locked) return;
    // HTTP evidence (HAR, Burp export, raw HTTP, curl) becomes a code block, not a file.
    const http = await httpEvidenceFiles(files);
    if (http) return importHttp(http, at);
    // A .har or .xml the app does not read is attached, and said so: never silently.
    setHttpProblems(await unreadEvidenceFiles(files));
    const { picked, refused } = await tokensForFiles(files);
    for (const name of refused) {
      reportError(
        inputError('file', `"${name}" cannot be read from disk; attach it from a folder.`),
      );
    }
    await attach(picked, at);
  }

  async function attachPicked(): Promise<void> {
    if (locked) return;
    const at = description.current?.offsetAtCursor() ?? null;
    try {
      await attach(await bridge.pickFiles(), at);
    } catch (e) {
      reportError(e);
    }
  }

  async function attach(
    picked: PickedFile[],
    at: { offset: number; markdown: string } | null,
  ): Promise<void> {
    if (locked || picked.length === 0) return;
    setAttachBusy(true);
    try {
      // The offset refers to the document as the editor shows it: store exactly that first.
      if (at) autosave.useDescription(at.markdown);
      await flush();
      // Each link goes after the one before (the engine places it with the same rule).
      let markdown = at?.markdown ?? '';
      let offset = at?.offset;
      for (const { token } of picked) {
        const [added] = await bridge.attachFiles(reportId, [
          offset === undefined ? { file: token } : { file: token, insertAt: offset },
        ]);
        if (added && offset !== undefined) {
          const placed = insertFileLinkAt(markdown, offset, {
            name: added.name,
            reportId,
            fileId: added.fileId,
            image: added.contentType.startsWith('image/'),
          });
          markdown = placed.markdown;
          offset = placed.end;
        }
      }
    } catch (e) {
      reportError(e);
    } finally {
      setAttachBusy(false);
      await useReport.getState().reload();
    }
  }

  async function importHttp(items: HttpItem[], at: DropPoint): Promise<void> {
    if (locked) return;
    setAttachBusy(true);
    setHttpProblems([]);
    try {
      const problems = await importHttpItems(reportId, items, at, async (point) => {
        // The offset refers to the document as the editor shows it: store exactly that first.
        if (point) autosave.useDescription(point.markdown);
        await flush();
      });
      setHttpProblems(problems);
    } catch (e) {
      reportError(e);
    } finally {
      setAttachBusy(false);
      await useReport.getState().reload();
    }
  }

  async function remove(file: EvidenceView): Promise<void> {
    try {
      await flush();
      await bridge.removeFile(reportId, file.fileId);
    } catch (e) {
      reportError(e);
    } finally {
      await useReport.getState().reload();
    }
  }

  const vectorState = describeVector(fields.cvss_vector);
  const errors = fieldIssues(issues, {
    title: fields.title,
    asset: fields.asset,
    cvss_vector: fields.cvss_vector,
    descriptionLength,
  });
  // A locked field is described by the line saying why (a screen reader meets it on the field).
  const describedBy = (name: DraftField): string =>
    [`${name}-count`, errors[name].length ? `${name}-error` : '', locked ? 'draft-locked' : '']
      .filter(Boolean)
      .join(' ');
  const evidence = detail.evidence.filter((e) => !e.forMessage);

  return (
    <div className="screen draft-editor">
      <p className="breadcrumb">
        <RouteLink to={{ name: 'program', programId: draft.programId }}>
          ← {detail.report?.program_name ?? draft.programId}
        </RouteLink>
      </p>
      <h1>{fields.title.trim() || 'Untitled draft'}</h1>
      <p
        className="muted save-state"
        aria-live="polite"
        {...(lockedBySubmit ? { id: 'draft-locked', tabIndex: -1, ref: lockedLine } : {})}
      >
        {saveState === 'saving' || saveState === 'pending'
          ? 'Saving…'
          : saveState === 'waiting'
            ? 'Not saved yet: your disk is full. Your text stays in this window and is saved as soon as there is space.'
            : saveState === 'error'
              ? 'Not saved: see the error above.'
              : // The last save's answer (its change queued), not only the report as last read.
                snapshot.unsent || detail.outbox.some((e) => e.state !== 'done')
                ? // A held-back write waits for the researcher, not the connection.
                  detail.outbox.some(
                    (e) => e.state === 'parked' && e.error?.code === 'secrets_found',
                  )
                  ? 'Saved on this computer; held back until each possible credential below is redacted or kept.'
                  : submitting
                    ? (offline
                        ? 'Submitted on this computer; sent to the service when the connection returns.'
                        : 'Submitted on this computer; being sent to the service.') +
                      (lockedBySubmit ? ' It can no longer be edited.' : '')
                    : offline
                      ? 'Saved on this computer; sent when the connection returns.'
                      : 'Saved on this computer; waiting to be sent.'
                : snapshot.notOnServer
                  ? notSentText(
                      snapshot.issues.length > 0,
                      heldByCheck,
                      draft.baseRevision !== null,
                    )
                  : notSendable.length > 0
                    ? 'Saved; sent without the links named below.'
                    : 'Saved and sent.'}
      </p>
      {notSendable.length > 0 ? (
        <p className="callout other-report-files" role="status">
          The description links {notSendable.map((n) => `“${n}”`).join(', ')}, which{' '}
          {notSendable.length === 1 ? 'is a file' : 'are files'} of another report: the server’s
          copy leaves {notSendable.length === 1 ? 'that link' : 'those links'} out. Attach the file
          here and link it again, or remove the link.
        </p>
      ) : null}
      {locked && !lockedBySubmit ? (
        <p id="draft-locked" className="disabled-reason" tabIndex={-1} ref={lockedLine}>
          {locked}
        </p>
      ) : null}
      {draft.conflicts.length > 0 ? (
        <ConflictView
          reportId={reportId}
          conflicts={draft.conflicts}
          disabledReason={readOnly}
          beforeSave={flush}
        />
      ) : null}
      <PolicyChangedNotice programId={draft.programId} startedUnder={draft.policyVersionAtStart} />
      <OutboxPanel entries={detail.outbox} readOnly={!!readOnly} />
      <label className="field">
        <span>Title</span>
        <input
          value={fields.title}
          // A draft without a title was just created: the researcher starts with its title.
          autoFocus={fields.title === '' && !locked && focusTitle}
          onChange={(e) => setField('title', e.target.value)}
          readOnly={!!locked}
          aria-invalid={errors.title.length ? true : undefined}
          aria-describedby={describedBy('title')}
        />
      </label>
      <CharCounter id="title-count" length={fields.title.length} max={LIMITS.titleChars} />
      <FieldError id="title-error" messages={errors.title} />
      <label className="field">
        <span>Asset</span>
        <input
          spellCheck={false}
          value={fields.asset}
          onChange={(e) => setField('asset', e.target.value)}
          readOnly={!!locked}
          placeholder="The URL, app or component affected"
          aria-invalid={errors.asset.length ? true : undefined}
          aria-describedby={describedBy('asset')}
        />
      </label>
      <CharCounter id="asset-count" length={fields.asset.length} max={LIMITS.assetChars} />
      <FieldError id="asset-error" messages={errors.asset} />
      <ScopeHint programId={draft.programId} asset={fields.asset} id="asset-scope" />
      <div className="field">
        <label htmlFor="cvss-vector-input">CVSS vector</label>
        <span className="field-row">
          <input
            spellCheck={false}
            id="cvss-vector-input"
            value={fields.cvss_vector}
            onChange={(e) => setField('cvss_vector', e.target.value)}
            readOnly={!!locked}
            placeholder="CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H"
            className="mono"
            aria-invalid={errors.cvss_vector.length ? true : undefined}
            aria-describedby={`${describedBy('cvss_vector')} cvss-score`}
          />
          <button type="button" disabled={!!locked} onClick={() => setCalculatorOpen(true)}>
            CVSS calculator
          </button>
        </span>
      </div>
      <span id="cvss-score" className="cvss-score-inline">
        {vectorState.kind === 'ok'
          ? scoreText(vectorState.score, vectorState.severity)
          : 'No score yet'}
      </span>{' '}
      <CharCounter
        id="cvss_vector-count"
        length={fields.cvss_vector.length}
        max={LIMITS.cvssVectorChars}
      />
      <FieldError id="cvss_vector-error" messages={errors.cvss_vector} />
      <div className="field">
        <span id="description-label">Description</span>
        <HttpPasteZone
          disabled={!!locked}
          inCode={() => description.current?.caretInCode() ?? false}
          onEvidence={(text) =>
            void importHttp([{ text }], description.current?.offsetAtCursor() ?? null)
          }
        >
          <DescriptionEditor
            reportId={reportId}
            initialValue={draft.content.description}
            readOnly={!!locked}
            handleRef={description}
            onDirty={() => autosave.schedule()}
            onDropFiles={(files, at) => void attachDropped(files, at)}
            openExternal={openExternal}
            describedBy={describedBy('description')}
            invalid={errors.description.length > 0}
          />
        </HttpPasteZone>
        {httpProblems.length > 0 && (
          <div role="alert" className="field-error http-import-problems">
            {httpProblems.map((p) => (
              <p key={p}>{p}</p>
            ))}
          </div>
        )}
      </div>
      <CharCounter
        id="description-count"
        length={descriptionLength}
        max={LIMITS.descriptionChars}
      />
      <div className="action-row">
        <SaveAsTemplate
          reportId={draft.reportId}
          selection={() => description.current?.selection() ?? null}
          whole={() => description.current?.markdown() ?? draft.content.description}
        />
      </div>
      <FieldError id="description-error" messages={errors.description} />
      <section aria-labelledby="evidence-heading" className="evidence-section">
        <h2 id="evidence-heading">Evidence</h2>
        <div className="action-row">
          <button
            type="button"
            disabled={!!locked || attachBusy}
            // The line above the fields says why, once; the submit row says it again.
            aria-describedby={locked ? 'draft-locked' : undefined}
            onClick={() => void attachPicked()}
          >
            Attach files
          </button>
          <span className="muted">
            Up to {LIMITS.draftFiles} files of 10 MiB. Drop files on the description to link them
            where you drop.
          </span>
        </div>
        <EvidenceList
          files={evidence}
          onRemove={(f) => void remove(f)}
          removeDisabledReason={locked}
        />
      </section>
      <SecretFindings
        reportId={reportId}
        beforeChange={flush}
        readOnly={!!locked}
        onFieldsHeld={setHeldByCheck}
        onShow={(f) => description.current?.show(f) ?? Promise.resolve(false)}
        backToSaved={snapshot.backToSaved}
      />
      <div className="action-row submit-row">
        <button
          type="button"
          className="primary"
          // Not twice: a submit waiting for the server is the report's already.
          disabled={!!locked}
          aria-describedby={locked ? 'draft-locked' : undefined}
          onClick={() => {
            void flush();
            setChecklistOpen(true);
          }}
        >
          Check and submit
        </button>
        <DiscardDraft reportId={reportId} reason={locked} beforeDiscard={flush} />
      </div>
      {calculatorOpen ? (
        <CvssCalculator
          vector={fields.cvss_vector}
          onClose={() => setCalculatorOpen(false)}
          onApply={(vector) => {
            setField('cvss_vector', vector);
            setCalculatorOpen(false);
          }}
        />
      ) : null}
      {checklistOpen ? (
        <SubmitChecklist
          reportId={reportId}
          readOnlyReason={locked}
          onClose={() => setChecklistOpen(false)}
          onSubmitted={() => setChecklistOpen(false)}
        />
      ) : null}
    </div>
  );
}

/**
 * Why a draft whose submit is queued takes no edit. Not "being submitted": offline nothing is
 * under way, and the save line says when it goes out; a stopped submit waits for the researcher.
 */
function submitLockReason(submit: OutboxEntryView): string {
  return submit.state === 'parked'
    ? 'The submit was stopped: retry or discard it under “Unsent changes”.'
    : 'Submitted: the report can no longer be edited.';
}

/** Kept here while the service has something else and nothing queued will send it. */
function notSentText(failsChecks: boolean, heldByCheck: boolean, everSent: boolean): string {
  if (failsChecks) return 'Saved on this computer; sent once the fields marked below are fixed.';
  // A held save discarded: the next change is held again while the credential is in the text (a
  // walk typed on and was held at once, after "until your next change").
  const until = heldByCheck
    ? 'until each possible credential below is redacted or kept'
    : 'until your next change';
  return everSent
    ? `Saved on this computer, not sent: the service keeps the version before ${until}.`
    : `Saved on this computer, not sent: the service has none of it ${until}.`;
}
