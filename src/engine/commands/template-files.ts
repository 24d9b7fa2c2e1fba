/**
 * The researcher's templates as Markdown files with `template: <name>` front matter: written to a
 * folder, read back as new templates. Apart from template-commands.ts so that the YAML reader
 * loads when templates go to or come from files, not with the engine.
 */
import { randomUUID } from 'node:crypto';
import { lstat, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { stringify } from 'yaml';
import { LIMITS } from '@shared/api';
import type {
  ImportProblemView,
  ImportTemplatesResult,
  TemplateRedaction,
} from '@shared/bridge/report-file-views';
import type { SessionContext } from './session-context';
import { parseFrontMatterFile } from '../report-files/front-matter';
import { safeName, uniqueName } from '../report-files/names';
import { NAME_CHARS } from './template-limits';

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
  withoutCredentials: (body: string) => Promise<{ text: string; found: TemplateRedaction[] }>,
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
  // A shared template file may carry someone's live token: it comes in redacted, and says so.
  const cleaned = await Promise.all(planned.map((p) => withoutCredentials(p.body)));
  const created = store.db.transaction(() =>
    planned.map((p, i) => {
      const clean = cleaned[i] ?? { text: p.body, found: [] };
      const t = store.templates.put({ id: randomUUID(), name: p.name, body: clean.text });
      return {
        templateId: t.id,
        name: t.name,
        file: p.file,
        ...(clean.found.length > 0 ? { redacted: clean.found } : {}),
      };
    }),
  );
  return { created, problems: [] };
}
