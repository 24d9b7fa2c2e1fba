import { randomUUID } from 'node:crypto';
import { LIMITS } from '../../shared/api';
import type { TemplateView } from '../../shared/bridge/report-file-views';
import type { DraftView } from '../../shared/bridge/views';
import type { DraftCommands } from '../engine/draft-commands';
import { EngineInputError } from '../engine/errors';
import type { SessionContext } from '../engine/session-context';
import type { Template } from '../store';
import { applyTemplate, fillPlaceholders, withPlaceholders } from './templates';

const NAME_CHARS = 100;

const toView = (t: Template): TemplateView => ({
  id: t.id,
  name: t.name,
  body: t.body,
  updatedAt: t.updatedAt,
});

/** Issue 25: the researcher's own templates, kept in the local database only. */
export class TemplateCommands {
  readonly #ctx: SessionContext;
  readonly #drafts: DraftCommands;

  constructor(ctx: SessionContext, drafts: DraftCommands) {
    this.#ctx = ctx;
    this.#drafts = drafts;
  }

  list(): TemplateView[] {
    return this.#ctx.store.templates.list().map(toView);
  }

  /**
   * Creates (no id) or changes a template. From a draft (`fromReportId`), the draft's own asset,
   * title and program name in the text become placeholders.
   */
  save(input: { id?: string; name: string; body: string; fromReportId?: string }): TemplateView {
    const { store } = this.#ctx;
    const name = input.name.trim();
    if (name === '') throw new EngineInputError('name', 'give the template a name');
    if ([...name].length > NAME_CHARS) {
      throw new EngineInputError('name', `is over ${NAME_CHARS} characters`);
    }
    if ([...input.body].length > LIMITS.descriptionChars) {
      throw new EngineInputError('body', `is over ${LIMITS.descriptionChars} characters`);
    }
    if (input.id !== undefined && !store.templates.get(input.id)) {
      throw new EngineInputError('id', 'there is no such template (deleted meanwhile?)');
    }
    const same = store.templates.getByName(name);
    if (same && same.id !== input.id) {
      throw new EngineInputError('name', `a template named “${same.name}” exists already`);
    }
    let body = input.body;
    if (input.fromReportId !== undefined) {
      const draft = store.drafts.get(input.fromReportId);
      const report = store.reports.getReport(input.fromReportId);
      const programId = draft?.programId ?? report?.program_id ?? '';
      body = withPlaceholders(body, {
        asset: draft?.asset ?? report?.asset ?? '',
        title: draft?.title ?? report?.title ?? '',
        program: store.programs.getSummary(programId)?.name ?? report?.program_name ?? '',
      });
    }
    return toView(store.templates.put({ id: input.id ?? randomUUID(), name, body }));
  }

  delete(id: string): void {
    if (!this.#ctx.store.templates.delete(id)) {
      throw new EngineInputError('id', 'there is no such template (deleted meanwhile?)');
    }
  }

  /** A new draft for the program, its description the program's frame filled by the template. */
  async startDraft(
    programId: string,
    templateId: string,
    input: { title: string; asset: string },
  ): Promise<DraftView> {
    const { store } = this.#ctx;
    const template = store.templates.get(templateId);
    if (!template) throw new EngineInputError('template', 'there is no such template');
    const created = await this.#drafts.createDraft(programId);
    const program = store.programs.getSummary(programId);
    const body = fillPlaceholders(template.body, {
      asset: input.asset,
      title: input.title,
      program: program?.name ?? programId,
      program_id: programId,
      date: new Date(this.#ctx.clock.now()).toISOString().slice(0, 10),
    });
    return this.#drafts.saveDraft(created.reportId, {
      title: input.title,
      asset: input.asset,
      description: applyTemplate(body, created.content.description),
      cvss_vector: '',
    });
  }
}
