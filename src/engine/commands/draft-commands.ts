import { randomUUID } from 'node:crypto';
import { contentOf, sameContent, type DraftConflict } from '@shared/bridge/draft-content';
import type { ConflictChoice, DraftContent, DraftField, DraftView } from '@shared/bridge/views';
import { LIMITS } from '@shared/api';
import { descriptionTemplate } from '@shared/rules';
import { applyChoices, mergeDraft } from '../domain/merge';
import { validateReportInput } from '../domain/validate';
import type { Draft } from '../store';
import { ApiError } from '../api';
import { EngineInputError } from './errors';
import {
  adoptDraft,
  draftSendState,
  policyVersionAtStart,
  queueSave,
  rememberPolicyVersion,
} from './local-drafts';
import { reportWritten, requireWritable, type SessionContext } from './session-context';
import { toDraftView } from './to-views';

const PROGRAM_ID = new RegExp(LIMITS.programIdPattern);

/**
 * Writing a draft: create it, save what the user typed, resolve a conflict. Every call writes
 * the content to SQLite first; the outbox sends it when it can (`save_report`).
 */
export class DraftCommands {
  readonly #ctx: SessionContext;

  constructor(ctx: SessionContext) {
    this.#ctx = ctx;
  }

  async createDraft(programId: string): Promise<DraftView> {
    requireWritable(this.#ctx);
    const { store } = this.#ctx;
    if (!PROGRAM_ID.test(programId)) {
      throw new EngineInputError('program_id', 'must be 1 to 80 lowercase letters, digits or "-"');
    }
    await this.#requireProgram(programId);
    const reportId = randomUUID();
    const content: DraftContent = {
      title: '',
      asset: '',
      description: descriptionTemplate(),
      cvss_vector: '',
    };
    const draft = store.db.transaction(() => {
      const created = store.drafts.setContent(reportId, programId, content);
      rememberPolicyVersion(store, reportId, programId);
      queueSave(store, reportId);
      return created;
    });
    this.#ctx.kick();
    reportWritten(this.#ctx, reportId);
    return toDraftView(draft, draftSendState(store, draft), policyVersionAtStart(store, reportId));
  }

  /**
   * A draft is only started for a program that exists: one in the mirror, else one the server
   * answers for now (kept in the mirror). A made-up id would give a local draft whose every save
   * the server refuses with a 404, parked as "needs action" long after the researcher moved on.
   */
  async #requireProgram(programId: string): Promise<void> {
    const { store, api } = this.#ctx;
    if (store.programs.getSummary(programId) || store.programs.getProgram(programId)) return;
    let program;
    try {
      program = await api.getProgram(programId, { priority: 'user' });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        throw new EngineInputError(
          'program_id',
          `there is no program “${programId}”: the server does not know it, or it is private`,
        );
      }
      if (error instanceof ApiError && error.kind !== 'http') {
        throw new EngineInputError(
          'program_id',
          `program “${programId}” is not in the offline copy, and the server cannot be reached ` +
            'to check it: sync when you are online, then start the report',
        );
      }
      throw error;
    }
    store.programs.upsertProgram(program);
  }

  /**
   * Autosave: the content is on disk before anything else happens. Invalid content is kept and
   * reported field by field; it is sent once it is valid.
   */
  saveDraft(reportId: string, content: DraftContent, basedOn?: DraftContent): DraftView {
    requireWritable(this.#ctx);
    const { store } = this.#ctx;
    const existing = adoptDraft(store, reportId);
    if (!existing) throw new EngineInputError('report_id', 'no local draft with this id');
    const draft = store.db.transaction(() => {
      const rebased = rebaseContent(existing, contentOf(content), basedOn);
      const saved = store.drafts.setContent(reportId, existing.programId, rebased.content);
      if (rebased.conflict) store.drafts.setConflict(reportId, rebased.conflict);
      const issues = validateReportInput({
        program_id: existing.programId,
        ...rebased.content,
        revision: 0,
      });
      if (issues.length === 0) queueSave(store, reportId);
      return rebased.conflict ? (store.drafts.get(reportId) ?? saved) : saved;
    });
    this.#ctx.kick();
    // The row, and the status bar's unsent count, follow every local write.
    reportWritten(this.#ctx, reportId);
    return toDraftView(draft, draftSendState(store, draft), policyVersionAtStart(store, reportId));
  }

  resolveConflicts(
    reportId: string,
    choices: Partial<Record<DraftField, ConflictChoice>>,
  ): DraftView {
    requireWritable(this.#ctx);
    const { store } = this.#ctx;
    const draft = store.drafts.get(reportId);
    if (!draft) throw new EngineInputError('report_id', 'no local draft with this id');
    const { content, remaining } = applyChoices(contentOf(draft), draft.conflict ?? {}, choices);
    const resolved = Object.keys(remaining).length === 0;
    const saved = store.db.transaction(() => {
      const next = store.drafts.setContent(reportId, draft.programId, content);
      store.drafts.setConflict(reportId, resolved ? null : remaining);
      if (resolved) {
        for (const entry of store.outbox.list({ reportId })) {
          if (entry.state === 'parked') store.outbox.unpark(entry.id, this.#ctx.clock.now());
        }
        store.outbox.enqueue({ reportId, kind: 'save_report', payload: {} });
      }
      return store.drafts.get(reportId) ?? next;
    });
    this.#ctx.kick();
    reportWritten(this.#ctx, reportId);
    return toDraftView(saved, draftSendState(store, saved), policyVersionAtStart(store, reportId));
  }
}

/**
 * The editor sends the content the user typed on top of `basedOn`, the content it last received.
 * If the engine changed the draft since (the server's edits merged in while the user typed), a
 * plain save would silently undo that merge: fold the content in with the same three-way merge
 * (the content is `ours`, the stored draft `theirs`), and where both touched a field differently
 * keep both for the user to choose.
 */
function rebaseContent(
  existing: Draft,
  content: DraftContent,
  basedOn: DraftContent | undefined,
): { content: DraftContent; conflict: DraftConflict | null } {
  const stored = contentOf(existing);
  if (!basedOn || sameContent(contentOf(basedOn), stored)) return { content, conflict: null };
  const merge = mergeDraft(contentOf(basedOn), content, stored);
  if (merge.conflicts.length === 0) return { content: merge.merged, conflict: null };
  // `theirs` is the server's side: the one a field already in conflict recorded, else the local
  // content the engine merged it into; the ancestor shown is the last acknowledged content.
  const conflict: DraftConflict = { ...existing.conflict };
  for (const c of merge.conflicts) {
    const earlier = existing.conflict?.[c.field];
    conflict[c.field] = {
      base: earlier?.base ?? existing.base?.[c.field] ?? c.base,
      ours: c.ours,
      theirs: earlier?.theirs ?? c.theirs,
    };
  }
  return { content: merge.merged, conflict };
}
