import { randomUUID } from 'node:crypto';
import { LIMITS } from '@shared/api';
import type { ImportTemplatesResult, TemplateView } from '@shared/bridge/report-file-views';
import type { DraftView } from '@shared/bridge/views';
import type { DraftCommands } from './draft-commands';
import type { SecretCommands } from './secret-commands';
import { EngineInputError } from './errors';
import { NAME_CHARS } from './template-limits';
import type { SessionContext } from './session-context';
import type { Template } from '../store';
import { findFileLinks, removeFileLinks } from '@shared/rules';
import { applyTemplate, fillPlaceholders, withPlaceholders } from '../report-files/templates';

const toView = (t: Template): TemplateView => ({
  id: t.id,
  name: t.name,
  body: t.body,
  updatedAt: t.updatedAt,
});

/** The researcher's own templates, kept in the local database only. */
export class TemplateCommands {
  readonly #ctx: SessionContext;
  readonly #drafts: DraftCommands;
  readonly #secrets: Pick<SecretCommands, 'withoutCredentials'>;

  constructor(
    ctx: SessionContext,
    drafts: DraftCommands,
    secrets: Pick<SecretCommands, 'withoutCredentials'>,
  ) {
    this.#ctx = ctx;
    this.#drafts = drafts;
    this.#secrets = secrets;
  }

  listTemplates(): TemplateView[] {
    return this.#ctx.store.templates.list().map(toView);
  }

  /**
   * Creates (no id) or changes a template. From a draft (`fromReportId`), the draft's own asset,
   * title and program name in the text become placeholders. Credentials in the text (a request's
   * bearer token, a cookie) are replaced by `[REDACTED:<kind>]` and named in the answer.
   */
  async saveTemplate(input: {
    id?: string;
    name: string;
    body: string;
    fromReportId?: string;
  }): Promise<TemplateView> {
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
    const { text, leftOut } = withoutFileLinks(store, input.body);
    let body = text;
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
    const clean = await this.#secrets.withoutCredentials(body);
    const saved = toView(
      store.templates.put({ id: input.id ?? randomUUID(), name, body: clean.text }),
    );
    return {
      ...saved,
      ...(leftOut.length > 0 ? { leftOut } : {}),
      ...(clean.found.length > 0 ? { redacted: clean.found } : {}),
    };
  }

  // The files' code (the YAML reader) loads on first use, not with the engine.
  async exportTemplates(folder: string): Promise<{ savedTo: string; count: number }> {
    return (await import('./template-files')).exportTemplateFiles(this.#ctx.store, folder);
  }

  async importTemplates(paths: readonly string[]): Promise<ImportTemplatesResult> {
    return (await import('./template-files')).importTemplateFiles(this.#ctx.store, paths, (body) =>
      this.#secrets.withoutCredentials(body),
    );
  }

  deleteTemplate(id: string): void {
    if (!this.#ctx.store.templates.delete(id)) {
      throw new EngineInputError('id', 'there is no such template (deleted meanwhile?)');
    }
  }

  /** A new draft for the program, its description the program's frame filled by the template. */
  async startFromTemplate(
    programId: string,
    templateId: string,
    input: { title: string; asset: string },
  ): Promise<DraftView> {
    const { store } = this.#ctx;
    const template = store.templates.get(templateId);
    if (!template) throw new EngineInputError('template', 'there is no such template');
    const created = await this.#drafts.createDraft(programId);
    const program = store.programs.getSummary(programId);
    // A template saved or imported before file links were left out of templates: still none.
    const body = fillPlaceholders(withoutFileLinks(store, template.body).text, {
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

/**
 * The text without its links to report files (`/reports/<id>/files/<id>`): images go, links keep
 * their words. A file belongs to one report; a new report from the template could only show a
 * link the server refuses, or another report's picture while its evidence says "No files yet".
 * The names of the files left out, for the researcher to attach them to the new report.
 */
function withoutFileLinks(
  store: SessionContext['store'],
  body: string,
): { text: string; leftOut: string[] } {
  if (!body.includes('/files/')) return { text: body, leftOut: [] };
  const links = findFileLinks(body);
  const leftOut: string[] = [];
  let text = body;
  for (const link of links) {
    const name = store.evidence.get(link.fileId)?.name ?? (link.text.trim() || link.fileId);
    if (!leftOut.includes(name)) leftOut.push(name);
    text = removeFileLinks(text, link.fileId);
  }
  return { text, leftOut };
}
