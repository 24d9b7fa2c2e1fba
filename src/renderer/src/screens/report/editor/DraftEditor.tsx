import { useCallback, useEffect, useRef, useState } from 'react';
import { LIMITS } from '../../../../../shared/api';
import type {
  DraftContent,
  DraftView,
  EvidenceView,
  ReportDetailView,
} from '../../../../../shared/bridge/views';
import { sameContent } from '../../../../../shared/bridge/draft-content';
import { fileLinkMarkdown } from '../../../../../shared/rules/file-links';
import { bridge, tokensForFiles, type PickedFile } from '../../../bridge';
import { CharCounter } from '../../../components/CharCounter';
import { DisabledReason } from '../../../components/DisabledReason';
import { describeVector, scoreText } from '../../../lib/cvss-state';
import { fieldIssues, type FieldName } from '../../../lib/draft-issues';
import { useCommand } from '../../../stores/commands';
import { reportError } from '../../../stores/notices';
import { useReport } from '../../../stores/report';
import { useReadOnlyReason } from '../../../stores/session';
import { navigate } from '../../../stores/router';
import { ConflictView } from './ConflictView';
import { CvssCalculator } from './CvssCalculator';
import { DescriptionEditor, type DescriptionHandle } from './DescriptionEditor';
import { EvidenceList } from './EvidenceList';
import { SubmitChecklist } from './SubmitChecklist';
import { ScopeHint } from '../evidence/ScopeHint';
import { SecretFindings } from '../evidence/SecretFindings';
import {
  HttpPasteZone,
  httpEvidenceFiles,
  importHttpItems,
  type DropPoint,
  type HttpItem,
} from '../evidence/http-import';
import { OutboxPanel } from '../OutboxPanel';

const SAVE_DELAY_MS = 300;

function FieldError({ id, messages }: { id: string; messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <p id={id} className="field-error">
      {messages.join(' ')}
    </p>
  );
}

function openExternal(href: string): void {
  bridge.openExternal(href).catch(reportError);
}

/** Title, asset, CVSS, description (Milkdown), evidence, conflicts and submit of one draft. */
export function DraftEditor({ detail, draft }: { detail: ReportDetailView; draft: DraftView }) {
  const reportId = detail.id;
  const readOnly = useReadOnlyReason();
  const submitting = detail.outbox.some((e) => e.kind === 'submit' && e.state !== 'done');
  const locked = readOnly ?? (submitting ? 'The report is being submitted.' : null);

  const [fields, setFields] = useState({
    title: draft.content.title,
    asset: draft.content.asset,
    cvss_vector: draft.content.cvss_vector,
  });
  const [descriptionLength, setDescriptionLength] = useState(draft.content.description.length);
  const [issues, setIssues] = useState(draft.issues);
  const [saveState, setSaveState] = useState<'saved' | 'pending' | 'saving' | 'error'>('saved');
  const [calculatorOpen, setCalculatorOpen] = useState(false);
  const [checklistOpen, setChecklistOpen] = useState(false);
  const [attachBusy, setAttachBusy] = useState(false);

  const content = useRef<DraftContent>(draft.content);
  const lastSaved = useRef<DraftContent>(draft.content);
  /** The engine's content the editor's text derives from: sent with each save as `basedOn`. */
  const basis = useRef<DraftContent>(draft.content);
  /** Contents this editor saved lately: the engine echoing one of them back is not news. */
  const ownSaves = useRef<DraftContent[]>([draft.content]);
  const saving = useRef(0);
  const dirty = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const chain = useRef<Promise<void>>(Promise.resolve());
  const description = useRef<DescriptionHandle | null>(null);

  const saveOnce = useCallback(async (): Promise<void> => {
    clearTimeout(timer.current);
    if (!dirty.current) return;
    dirty.current = false;
    const markdown = description.current?.markdown();
    const next = { ...content.current, ...(markdown != null ? { description: markdown } : {}) };
    content.current = next;
    setDescriptionLength(next.description.length);
    if (sameContent(next, lastSaved.current)) {
      setSaveState('saved');
      return;
    }
    setSaveState('saving');
    saving.current++;
    ownSaves.current = [...ownSaves.current.slice(-19), next];
    try {
      const view = await bridge.saveDraft(reportId, next, basis.current);
      lastSaved.current = next;
      basis.current = next;
      setIssues(view.issues);
      setSaveState(dirty.current ? 'pending' : 'saved');
      // The engine merged changes made elsewhere into this edit: show them unless the user has
      // typed on since (then the next save carries `basedOn` and is merged the same way).
      if (!sameContent(view.content, next) && !dirty.current) adopt(view.content);
    } catch (e) {
      reportError(e);
      dirty.current = true;
      setSaveState('error');
    } finally {
      saving.current--;
    }
  }, [reportId]);

  /** Saves now, after any save already running (saves never overlap or reorder). */
  const flush = useCallback((): Promise<void> => {
    chain.current = chain.current.then(saveOnce, saveOnce);
    return chain.current;
  }, [saveOnce]);

  const schedule = useCallback((): void => {
    if (readOnly) return;
    dirty.current = true;
    setSaveState('pending');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void flush(), SAVE_DELAY_MS);
  }, [flush, readOnly]);

  // Save what is pending when the editor goes away (navigation, window closing).
  useEffect(() => {
    const onHide = (): void => void flush();
    window.addEventListener('beforeunload', onHide);
    return () => {
      window.removeEventListener('beforeunload', onHide);
      void flush();
    };
  }, [flush]);

  /** Shows the engine's content in every field; later saves build on it. */
  function adopt(incoming: DraftContent): void {
    lastSaved.current = incoming;
    basis.current = incoming;
    ownSaves.current = [incoming];
    content.current = incoming;
    setFields({ title: incoming.title, asset: incoming.asset, cvss_vector: incoming.cvss_vector });
    setDescriptionLength(incoming.description.length);
    if (description.current?.markdown() !== incoming.description) {
      description.current?.replace(incoming.description);
    }
  }

  // The engine changed the draft (a merge, a file link, a resolution): adopt it while idle.
  useEffect(() => {
    const incoming = draft.content;
    const echo = ownSaves.current.some((c) => sameContent(c, incoming));
    if (dirty.current || saving.current > 0 || echo || sameContent(incoming, lastSaved.current)) {
      setIssues(draft.issues);
      return;
    }
    adopt(incoming);
    setIssues(draft.issues);
  }, [draft]);

  useCommand('save-now', () => void flush());

  function setField(name: 'title' | 'asset' | 'cvss_vector', value: string): void {
    setFields((f) => ({ ...f, [name]: value }));
    content.current = { ...content.current, [name]: value };
    schedule();
  }

  async function attachDropped(
    files: File[],
    at: { offset: number; markdown: string } | null,
  ): Promise<void> {
    if (locked) return;
    // HTTP evidence (HAR, Burp export, raw HTTP, curl) becomes a code block, not a file.
    const http = await httpEvidenceFiles(files);
    if (http) return importHttp(http, at);
    const { picked, refused } = await tokensForFiles(files);
    for (const name of refused) {
      reportError(new Error(`file: "${name}" cannot be read from disk; attach it from a folder.`));
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
      if (at) {
        content.current = { ...content.current, description: at.markdown };
        dirty.current = true;
      }
      await flush();
      let offset = at?.offset;
      for (const { token } of picked) {
        const [added] = await bridge.attachFiles(reportId, [
          offset === undefined ? { file: token } : { file: token, insertAt: offset },
        ]);
        if (added && offset !== undefined) {
          offset += fileLinkMarkdown({
            name: added.name,
            reportId,
            fileId: added.fileId,
            image: added.contentType.startsWith('image/'),
          }).length;
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
    try {
      await importHttpItems(reportId, items, at, async (point) => {
        // The offset refers to the document as the editor shows it: store exactly that first.
        if (point) {
          content.current = { ...content.current, description: point.markdown };
          dirty.current = true;
        }
        await flush();
      });
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
  const describedBy = (name: FieldName): string =>
    [`${name}-count`, errors[name].length ? `${name}-error` : ''].filter(Boolean).join(' ');
  const evidence = detail.evidence.filter((e) => !e.forMessage);

  return (
    <div className="screen draft-editor">
      <p className="breadcrumb">
        <a
          href={`#/programs/${encodeURIComponent(draft.programId)}`}
          onClick={(e) => {
            e.preventDefault();
            navigate({ name: 'program', programId: draft.programId });
          }}
        >
          ← {detail.report?.program_name ?? draft.programId}
        </a>
      </p>
      <h1>{fields.title.trim() || 'Untitled draft'}</h1>
      <p className="muted save-state" aria-live="polite">
        {saveState === 'saving' || saveState === 'pending'
          ? 'Saving…'
          : saveState === 'error'
            ? 'Not saved: see the error above.'
            : draft.unsent || detail.outbox.some((e) => e.state !== 'done')
              ? 'Saved on this computer; waiting to be sent.'
              : 'Saved and sent.'}
        {submitting ? ' Submitting: it is sent when the server is reachable.' : ''}
      </p>
      {locked ? <p className="disabled-reason">{locked}</p> : null}
      {draft.conflicts.length > 0 ? (
        <ConflictView
          reportId={reportId}
          conflicts={draft.conflicts}
          disabledReason={readOnly}
          beforeSave={flush}
        />
      ) : null}
      <OutboxPanel entries={detail.outbox} readOnly={!!readOnly} />
      <label className="field">
        <span>Title</span>
        <input
          value={fields.title}
          // A draft without a title was just created: the researcher starts with its title.
          autoFocus={fields.title === '' && !locked}
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
          onEvidence={(text) =>
            void importHttp([{ text }], description.current?.offsetAtCursor() ?? null)
          }
        >
          <DescriptionEditor
            initialValue={draft.content.description}
            readOnly={!!locked}
            handleRef={description}
            onDirty={schedule}
            onDropFiles={(files, at) => void attachDropped(files, at)}
            openExternal={openExternal}
            describedBy={describedBy('description')}
            invalid={errors.description.length > 0}
          />
        </HttpPasteZone>
      </div>
      <CharCounter
        id="description-count"
        length={descriptionLength}
        max={LIMITS.descriptionChars}
      />
      <FieldError id="description-error" messages={errors.description} />
      <section aria-labelledby="evidence-heading" className="evidence-section">
        <h2 id="evidence-heading">Evidence</h2>
        <div className="action-row">
          <button
            type="button"
            disabled={!!locked || attachBusy}
            aria-describedby={locked ? 'attach-reason' : undefined}
            onClick={() => void attachPicked()}
          >
            Attach files
          </button>
          <DisabledReason id="attach-reason" reason={locked} />
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
      <SecretFindings reportId={reportId} beforeChange={flush} readOnly={!!locked} />
      <div className="action-row submit-row">
        <button
          type="button"
          className="primary"
          onClick={() => {
            void flush();
            setChecklistOpen(true);
          }}
        >
          Check and submit
        </button>
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
          readOnlyReason={readOnly}
          onClose={() => setChecklistOpen(false)}
          onSubmitted={() => setChecklistOpen(false)}
        />
      ) : null}
    </div>
  );
}
