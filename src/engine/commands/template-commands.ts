import { randomUUID } from 'node:crypto';
import { lstat, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { stringify } from 'yaml';
import { LIMITS } from '@shared/api';
import type {
  ImportProblemView,
  ImportTemplatesResult,
  TemplateView,
} from '@shared/bridge/report-file-views';
import type { DraftView } from '@shared/bridge/views';
import type { DraftCommands } from './draft-commands';
import { EngineInputError } from './errors';
import type { SessionContext } from './session-context';
import type { Template } from '../store';
import { parseFrontMatterFile } from '../report-files/front-matter';
import { safeName, uniqueName } from '../report-files/names';
import { findFileLinks, removeFileLinks } from '@shared/rules';
import { applyTemplate, fillPlaceholders, withPlaceholders } from '../report-files/templates';

const NAME_CHARS = 100;

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

  constructor(ctx: SessionContext, drafts: DraftCommands) {
    this.#ctx = ctx;
    this.#drafts = drafts;
  }

  listTemplates(): TemplateView[] {
    return this.#ctx.store.templates.list().map(toView);
  }

  /**
   * Creates (no id) or changes a template. From a draft (`fromReportId`), the draft's own asset,
   * title and program name in the text become placeholders.
   */
  saveTemplate(input: {
    id?: string;
    name: string;
    body: string;
    fromReportId?: string;
  }): TemplateView {
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
    const saved = toView(store.templates.put({ id: input.id ?? randomUUID(), name, body }));
    return leftOut.length > 0 ? { ...saved, leftOut } : saved;
  }

  exportTemplates(folder: string): Promise<{ savedTo: string; count: number }> {
    return exportTemplateFiles(this.#ctx.store, folder);
  }

  importTemplates(paths: readonly string[]): Promise<ImportTemplatesResult> {
    return importTemplateFiles(this.#ctx.store, paths);
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

/** A template as a file: `template: <name>` front matter, then its text. */
export function formatTemplateFile(name: string, body: string): string {
  return `---\n${stringify({ template: name }, { lineWidth: 0 })}---\n${body}`;
}

/**
 * The templates as Markdown files in `folder`, one per template (`<name>.md`), to keep them in
 * git or share them; `importTemplateFiles` reads them back.
 */
export async function exportTemplateFiles(
  store: SessionContext['store'],
  folder: string,
): Promise<{ savedTo: string; count: number }> {
  const taken = new Set<string>();
  const all = store.templates.list();
  for (const t of all) {
    const name = uniqueName(`${safeName(t.name, 'template')}.md`, taken);
    await writeFile(join(folder, name), formatTemplateFile(t.name, t.body));
  }
  return { savedTo: folder, count: all.length };
}

/**
 * Template files (or a folder of them) as new templates: each needs `template: <name>` front
 * matter, a name no other template has. Any problem (with its file and line) and none is kept.
 */
export async function importTemplateFiles(
  store: SessionContext['store'],
  paths: readonly string[],
): Promise<ImportTemplatesResult> {
  const files: { path: string; display: string }[] = [];
  for (const picked of paths) {
    const info = await lstat(picked).catch(() => null);
    if (info?.isDirectory()) {
      for (const entry of (await readdir(picked, { withFileTypes: true })).sort((a, b) =>
        a.name < b.name ? -1 : 1,
      )) {
        if (entry.isFile() && /\.(md|markdown)$/i.test(entry.name)) {
          files.push({ path: join(picked, entry.name), display: entry.name });
        }
      }
    } else files.push({ path: picked, display: basename(picked) });
  }
  const problems: ImportProblemView[] = [];
  const planned: { name: string; body: string; file: string }[] = [];
  const names = new Set(store.templates.list().map((t) => t.name.toLowerCase()));
  for (const file of files) {
    const info = await lstat(file.path).catch(() => null);
    if (!info?.isFile() || info.size > 2 * 1024 * 1024) {
      problems.push({ file: file.display, line: 0, field: 'file', message: 'cannot be read' });
      continue;
    }
    const read = parseFrontMatterFile(
      await readFile(file.path, 'utf8'),
      ['template'],
      ['template'],
      ['template'],
    );
    if (!read.ok) {
      problems.push(...read.problems.map((p) => ({ file: file.display, ...p })));
      continue;
    }
    const name = (read.values['template'] ?? '').trim();
    const line = read.lines['template'] ?? 2;
    if ([...name].length > NAME_CHARS) {
      problems.push({
        file: file.display,
        line,
        field: 'template',
        message: `the name is over ${NAME_CHARS} characters`,
      });
    } else if (names.has(name.toLowerCase())) {
      problems.push({
        file: file.display,
        line,
        field: 'template',
        message: `a template named “${name}” exists already`,
      });
    } else if ([...read.body].length > LIMITS.descriptionChars) {
      problems.push({
        file: file.display,
        line: read.bodyOffset + 1,
        field: 'body',
        message: `is over ${LIMITS.descriptionChars} characters`,
      });
    } else {
      names.add(name.toLowerCase());
      planned.push({ name, body: read.body, file: file.display });
    }
  }
  if (problems.length > 0) return { created: [], problems };
  const created = store.db.transaction(() =>
    planned.map((p) => {
      const t = store.templates.put({ id: randomUUID(), name: p.name, body: p.body });
      return { templateId: t.id, name: t.name, file: p.file };
    }),
  );
  return { created, problems: [] };
}
