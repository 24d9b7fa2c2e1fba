import { randomUUID } from 'node:crypto';
import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { LIMITS } from '@shared/api';
import type { ImportProblemView, ImportReportsResult } from '@shared/bridge/report-file-views';
import { fileLinkTarget } from '@shared/rules/file-links';
import { validateFile } from '../domain/validate';
import { ApiError } from '../api';
import { takeFiles, uploadPayload, type IncomingFile } from './incoming-files';
import { queueDraftChange, queueSave, rememberPolicyVersion } from './local-drafts';
import { requireWritable, USER, type SessionContext } from './session-context';
import { parseReportFile, type FileProblem } from '../report-files/front-matter';
import { findLocalLinks, linksToFiles } from '../report-files/links';
import { THREAD_FILE } from '../report-files/report-folder';

type ImportProblem = ImportProblemView;
type ImportResult = ImportReportsResult;

/** A report file at most this long is read (a description is 50,000 characters at most). */
const MAX_FILE_BYTES = 2 * 1024 * 1024;
/** Report files of one import, and folder levels walked. */
const MAX_REPORTS = 200;
const MAX_DEPTH = 4;

interface Planned {
  file: string;
  display: string;
  programId: string;
  title: string;
  asset: string;
  cvss_vector: string;
  description: string;
  /** Local link path (as written) → the file on disk. */
  links: Map<string, string>;
}

/**
 * Imports report files (Markdown with front matter) as new drafts; never submits. `paths` are
 * what the user picked or dropped: files, or folders whose `.md` files (but `thread.md`, the
 * exported thread) are read. Everything is checked first (front matter, program, each linked
 * file: there, inside the picked folder, within the limits); one problem and nothing is
 * imported. Linked files take the path of a drop: copied into the evidence store (image metadata
 * removed), checked against the limits, uploaded by the outbox, and scanned for credentials
 * before submit like any evidence.
 */
export async function importReports(
  ctx: SessionContext,
  paths: readonly string[],
): Promise<ImportResult> {
  requireWritable(ctx);
  const problems: ImportProblem[] = [];
  const files: { path: string; root: string; display: string }[] = [];
  for (const picked of paths) {
    const info = await lstat(picked).catch(() => null);
    if (info?.isDirectory()) {
      const root = await realpath(picked);
      for (const path of await markdownFiles(root, 0)) {
        files.push({ path, root, display: relative(dirname(root), path) });
      }
    } else if (info?.isFile()) {
      files.push({ path: picked, root: dirname(picked), display: basename(picked) });
    } else {
      problems.push({
        file: basename(picked),
        line: 0,
        field: 'file',
        message: 'cannot be read (not a regular file or folder)',
      });
    }
  }
  if (files.length === 0 && problems.length === 0) {
    problems.push({
      file: paths.map((p) => basename(p)).join(', '),
      line: 0,
      field: 'file',
      message: 'holds no Markdown report (.md) file',
    });
  }
  if (files.length > MAX_REPORTS) {
    problems.push({
      file: files[0]?.display ?? '',
      line: 0,
      field: 'file',
      message: `${files.length} report files: import at most ${MAX_REPORTS} at once`,
    });
    return { created: [], problems };
  }
  const plans: Planned[] = [];
  for (const file of files) {
    const plan = await planOne(ctx, file, (p) => problems.push({ file: file.display, ...p }));
    if (plan) plans.push(plan);
  }
  if (problems.length > 0) return { created: [], problems };
  return { created: await create(ctx, plans), problems: [] };
}

async function markdownFiles(dir: string, depth: number): Promise<string[]> {
  if (depth > MAX_DEPTH) return [];
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await markdownFiles(path, depth + 1)));
    else if (
      entry.isFile() &&
      /\.(md|markdown)$/i.test(entry.name) &&
      entry.name.toLowerCase() !== THREAD_FILE
    )
      out.push(path);
  }
  return out;
}

async function planOne(
  ctx: SessionContext,
  file: { path: string; root: string; display: string },
  report: (problem: FileProblem) => void,
): Promise<Planned | null> {
  const info = await lstat(file.path);
  if (info.size > MAX_FILE_BYTES) {
    report({ line: 0, field: 'file', message: 'is over 2 MB: not a report file' });
    return null;
  }
  const text = await readFile(file.path, 'utf8');
  const parsed = parseReportFile(text);
  if (!parsed.ok) {
    parsed.problems.forEach(report);
    return null;
  }
  let ok = true;
  const fail = (problem: FileProblem): void => {
    ok = false;
    report(problem);
  };
  const programLine = parsed.lines['program'] ?? 1;
  const programProblem = await checkProgram(ctx, parsed.meta.program);
  if (programProblem) fail({ line: programLine, field: 'program', message: programProblem });

  const links = new Map<string, string>();
  const dir = dirname(file.path);
  let count = 0;
  for (const link of findLocalLinks(parsed.description)) {
    const line = link.line + parsed.descriptionOffset;
    if (links.has(link.path)) continue;
    const target = resolve(dir, link.path);
    const inside = relative(file.root, target);
    if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside)) {
      fail({
        line,
        field: 'description',
        message: `the link to "${link.path}" leaves the folder you picked: only files beside the report are attached`,
      });
      continue;
    }
    const found = await lstat(target).catch(() => null);
    const real = found ? await realpath(target).catch(() => target) : target;
    const realRoot = await realpath(file.root).catch(() => file.root);
    if (found && relative(realRoot, real).startsWith('..')) {
      fail({
        line,
        field: 'description',
        message: `"${link.path}" is inside a linked folder that leads out of the folder you picked`,
      });
      continue;
    }
    if (!found) {
      fail({
        line,
        field: 'description',
        message: `the linked file "${link.path}" does not exist`,
      });
      continue;
    }
    if (found.isSymbolicLink() || !found.isFile()) {
      fail({
        line,
        field: 'description',
        message: `"${link.path}" is ${found.isSymbolicLink() ? 'a link to another file' : 'not a file'}: link the file itself`,
      });
      continue;
    }
    const issue = validateFile({ name: basename(target), size: found.size })[0];
    if (issue) {
      fail({ line, field: 'description', message: `the file "${link.path}": ${issue.message}` });
      continue;
    }
    count += 1;
    if (count === LIMITS.draftFiles + 1) {
      fail({
        line,
        field: 'description',
        message: `links more than ${LIMITS.draftFiles} files: a draft holds at most ${LIMITS.draftFiles}`,
      });
    }
    links.set(link.path, target);
  }
  if (!ok) return null;
  return {
    file: file.path,
    display: file.display,
    programId: parsed.meta.program,
    title: parsed.meta.title,
    asset: parsed.meta.asset,
    cvss_vector: parsed.meta.cvss_vector,
    description: parsed.description,
    links,
  };
}

const PROGRAM_ID = /^[a-z0-9-]{1,80}$/;

/** Null when the program is known (the offline copy, else the server); else why not. */
async function checkProgram(ctx: SessionContext, programId: string): Promise<string | null> {
  if (!PROGRAM_ID.test(programId)) {
    return `"${programId}" is not a program id (1 to 80 lowercase letters, digits or "-")`;
  }
  const { store, api } = ctx;
  if (store.programs.getSummary(programId) || store.programs.getProgram(programId)) return null;
  try {
    store.programs.upsertProgram(await api.getProgram(programId, USER));
    return null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      return `there is no program "${programId}": the server does not know it, or it is private`;
    }
    if (error instanceof ApiError && error.kind !== 'http') {
      return `program "${programId}" is not in the offline copy and the server cannot be reached to check it`;
    }
    throw error;
  }
}

/** Copies every linked file first, then makes all drafts in one transaction. */
async function create(ctx: SessionContext, plans: Planned[]): Promise<ImportResult['created']> {
  const { store } = ctx;
  const taken: { path: string; file: IncomingFile }[][] = [];
  for (const plan of plans) {
    const paths = [...new Set(plan.links.values())];
    const incoming = await takeFiles(store, paths);
    taken.push(incoming.map((file, i) => ({ path: paths[i] ?? '', file })));
  }
  const created = store.db.transaction(() =>
    plans.map((plan, i) => {
      const reportId = randomUUID();
      const files = (taken[i] ?? []).map(({ path, file }) => {
        const fileId = randomUUID();
        const stored = store.evidence.link({ reportId, fileId, ...file, purpose: 'report' });
        return { path, fileId, file, stored };
      });
      const targetOf = new Map(files.map((f) => [f.path, fileLinkTarget(reportId, f.fileId)]));
      const description = linksToFiles(plan.description, (path) => {
        const onDisk = plan.links.get(path);
        return onDisk === undefined ? null : (targetOf.get(onDisk) ?? null);
      });
      store.drafts.setContent(reportId, plan.programId, {
        title: plan.title,
        asset: plan.asset,
        description,
        cvss_vector: plan.cvss_vector,
      });
      rememberPolicyVersion(store, reportId, plan.programId);
      queueSave(store, reportId);
      // The uploads, then the save that sends the links (a link goes out once its file is ready).
      for (const f of files) {
        queueDraftChange(store, {
          reportId,
          kind: 'upload_file',
          payload: uploadPayload(f.fileId, f.file, f.stored),
        });
      }
      if (files.length > 0) queueSave(store, reportId);
      return { reportId, title: plan.title, file: plan.display };
    }),
  );
  ctx.kick();
  ctx.emitStatus();
  return created;
}
