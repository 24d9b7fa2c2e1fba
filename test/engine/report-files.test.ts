import { lstat, mkdir, readdir, readFile, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasImageMetadata } from '../../src/engine/evidence/images';
import { parseReportFile } from '../../src/engine/report-files/front-matter';
import { fileLinkTarget, findFileLinks } from '../../src/shared/rules';
import type { Report } from '../support/sandbox-client';
import { COMPLETE_DESCRIPTION, harnessPerTest, type Harness } from './harness';
import { tempDirsPerTest } from '../support/temp-dirs';

/**
 * Through the engine against the sandbox: a draft with evidence exported to a folder
 * (front matter, relative links, the cleaned copies, the thread), imported back as an identical
 * new draft that the outbox sends (never submitted), and bad files refused with their line,
 * nothing imported.
 */
const PHOTO = 'test/fixtures/real/images/exifr-img_1771.jpg';
const VECTOR = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N';

describe('reports as Markdown files', () => {
  const connected = harnessPerTest();
  const tempDir = tempDirsPerTest();

  async function open(): Promise<Harness & { out: string }> {
    const h = await connected();
    return Object.assign(h, { out: await tempDir('report-files-') });
  }

  /** A draft as researchers write it: a photo with metadata and a text PoC linked in it. */
  async function draftWithEvidence(x: Harness): Promise<string> {
    const draft = await x.engine.calls.createDraft(x.programs.open.id);
    const id = draft.reportId;
    const photo = await x.file('phone photo.jpg', await readFile(PHOTO));
    const poc = await x.file('poc (1).html', '<script>alert(document.domain)</script>\n');
    await x.engine.calls.saveDraft(id, {
      title: 'Stored XSS in the "display name" field',
      asset: 'https://app.example.com/settings',
      description: `${COMPLETE_DESCRIPTION}\n---\n\n| Step | Payload |\n| --- | --- |\n| 1 | \`"><svg onload=alert(1)>\` |\n`,
      cvss_vector: VECTOR,
    });
    const at = (await x.engine.calls.getReport(id))?.draft?.content.description.length ?? 0;
    await x.engine.calls.attachFiles(id, [
      { path: photo, insertAt: at },
      { path: poc, insertAt: at },
    ]);
    await x.engine.session.drain();
    return id;
  }

  it('exports a draft as front matter, the description with relative links, the cleaned files and the thread', async () => {
    const x = await open();
    const id = await draftWithEvidence(x);
    const detail = await x.engine.calls.getReport(id);
    const result = await x.engine.calls.exportReports([id], x.out);
    expect(result.reports).toHaveLength(1);
    const folder = result.reports[0]?.folder ?? '';
    expect(result.reports[0]).toMatchObject({ reportId: id, files: 2, missing: [] });
    expect((await readdir(folder)).sort()).toEqual(['files', 'report.md', 'thread.md']);
    expect((await readdir(join(folder, 'files'))).sort()).toEqual([
      'phone photo.jpg',
      'poc (1).html',
    ]);

    const text = await readFile(join(folder, 'report.md'), 'utf8');
    const parsed = parseReportFile(text);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    expect(parsed.meta).toEqual({
      program: x.programs.open.id,
      title: 'Stored XSS in the "display name" field',
      asset: 'https://app.example.com/settings',
      cvss_vector: VECTOR,
    });
    expect(text).toContain(`report_id: ${id}`);
    expect(text).toContain('cvss_score: 6.1');
    expect(text).toContain('status: draft');
    expect(text).toContain('![phone photo.jpg](files/phone%20photo.jpg)');
    expect(text).toContain('[poc (1).html](files/poc%20%281%29.html)');
    expect(findFileLinks(parsed.description)).toEqual([]);
    // Everything but the links is the description as written.
    const written = detail?.draft?.content.description ?? '';
    const [photoId, pocId] = (detail?.evidence ?? []).map((e) => e.fileId);
    expect(
      parsed.description
        .replace('files/phone%20photo.jpg', fileLinkTarget(id, photoId ?? ''))
        .replace('files/poc%20%281%29.html', fileLinkTarget(id, pocId ?? '')),
    ).toBe(written);

    // The photo as the service received it: metadata removed, never the original.
    const original = await readFile(PHOTO);
    const exported = await readFile(join(folder, 'files', 'phone photo.jpg'));
    expect(hasImageMetadata(original)).toBe(true);
    expect(hasImageMetadata(exported)).toBe(false);
    const server = await x.sandbox.api<Report>('GET', `/api/reports/${id}`, { token: x.key });
    const onServer = Object.values(server.body.attachments).find(
      (a) => a.name === 'phone photo.jpg',
    );
    expect(onServer?.size).toBe(exported.length);

    const thread = await readFile(join(folder, 'thread.md'), 'utf8');
    expect(thread).toContain('# Thread: Stored XSS');
    expect(thread).toContain(id);
  });

  it('imports the exported folder as an identical new draft, sent but never submitted', async () => {
    const x = await open();
    const id = await draftWithEvidence(x);
    const before = await x.engine.calls.getReport(id);
    await x.engine.calls.exportReports([id], x.out);

    const imported = await x.engine.calls.importReports([x.out]);
    expect(imported.problems).toEqual([]);
    expect(imported.created).toHaveLength(1);
    const newId = imported.created[0]?.reportId ?? '';
    expect(newId).not.toBe(id);
    await x.engine.session.drain();

    const after = await x.engine.calls.getReport(newId);
    const old = before?.draft?.content;
    const now = after?.draft?.content;
    expect(now?.title).toBe(old?.title);
    expect(now?.asset).toBe(old?.asset);
    expect(now?.cvss_vector).toBe(old?.cvss_vector);
    // The same description, each link now to the new draft's copy of the same file.
    const names = (view: typeof before) =>
      new Map((view?.evidence ?? []).map((e) => [e.fileId, e.name]));
    const relabel = (md: string, reportId: string, byId: Map<string, string>) =>
      [...byId].reduce(
        (text, [fileId, name]) => text.split(fileLinkTarget(reportId, fileId)).join(`<${name}>`),
        md,
      );
    expect(relabel(now?.description ?? '', newId, names(after))).toBe(
      relabel(old?.description ?? '', id, names(before)),
    );
    expect((after?.evidence ?? []).map((e) => [e.name, e.size, e.sha256]).sort()).toEqual(
      (before?.evidence ?? []).map((e) => [e.name, e.size, e.sha256]).sort(),
    );
    // On the server: a draft with the same files, not submitted.
    const server = await x.sandbox.api<Report>('GET', `/api/reports/${newId}`, { token: x.key });
    expect(server.body.status).toBe('draft');
    expect(server.body.submitted_at).toBeNull();
    expect(server.body.description).toBe(now?.description);
    expect(Object.keys(server.body.attachments)).toHaveLength(2);
  });

  it('refuses bad files naming the line of each problem, and imports nothing', async () => {
    const x = await open();
    const dir = x.out;
    const program = x.programs.open.id;
    await mkdir(join(dir, 'files'));
    await writeFile(join(dir, 'files', 'ok.txt'), 'fine\n');
    await writeFile(join(dir, 'files', 'huge.bin'), '');
    await truncate(join(dir, 'files', 'huge.bin'), 11 * 1024 * 1024);
    const write = (name: string, text: string) => writeFile(join(dir, name), text);
    await write('a-good.md', `---\nprogram: ${program}\ntitle: Fine\n---\n[ok](files/ok.txt)\n`);
    await write('b-yaml.md', `---\nprogram: ${program}\ntitle: [unclosed\nasset: x\n---\nbody\n`);
    await write('c-missing.md', `---\nprogram: ${program}\nasset: x\n---\nbody\n`);
    await write('d-program.md', `---\ntitle: T\nprogram: no-such-program\n---\nbody\n`);
    await write(
      'e-links.md',
      `---\nprogram: ${program}\ntitle: T\n---\n## Steps\n\n![gone](files/gone.png)\n\n[big](files/huge.bin)\n\n[key](../../.ssh/id_rsa)\n`,
    );
    await write('f-none.md', '# Just notes\n');
    await write('g-type.md', `---\nprogram: ${program}\ntitle: 42\n---\n`);
    const draftsBefore = x.engine.session.store.drafts.list().length;

    const result = await x.engine.calls.importReports([dir]);
    expect(result.created).toEqual([]);
    const lines = result.problems.map((p) => `${p.file}:${p.line} ${p.field}: ${p.message}`);
    const name = dir.split('/').pop();
    const at = (file: string, line: number, field: string, words: RegExp) =>
      expect(
        lines.some((l) => l.startsWith(`${name}/${file}:${line} ${field}:`) && words.test(l)),
        `${file}:${line} in\n${lines.join('\n')}`,
      ).toBe(true);
    at('b-yaml.md', 3, 'title', /YAML cannot be read: Flow sequence/);
    at('c-missing.md', 4, 'title', /"title" is missing/);
    at('d-program.md', 3, 'program', /no program "no-such-program"/);
    at('e-links.md', 7, 'description', /"files\/gone.png" does not exist/);
    at('e-links.md', 9, 'description', /huge.bin.*over the limit/);
    at('e-links.md', 11, 'description', /leaves the folder you picked/);
    at('f-none.md', 1, 'front matter', /does not start with front matter/);
    at('g-type.md', 3, 'title', /must be text/);
    expect(lines.filter((l) => l.includes('a-good.md'))).toEqual([]);
    // The good file was not imported either: all or nothing.
    expect(x.engine.session.store.drafts.list()).toHaveLength(draftsBefore);
    expect((await lstat(join(dir, 'a-good.md'))).isFile()).toBe(true);
  });

  it('exports a submitted report with its thread, message files beside it', async () => {
    const x = await open();
    const id = await draftWithEvidence(x);
    await x.engine.calls.submit(id);
    await x.engine.session.drain();
    await x.sandbox.act(id, { actor: 'agent', status: 'needs_info', message: 'Which browser?' });
    await x.engine.calls.syncNow();
    const log = await x.file('console.log', 'Uncaught TypeError at /settings\n');
    await x.engine.calls.postMessage(id, {
      body: 'Firefox 140; console attached.',
      filePaths: [log],
    });
    await x.engine.session.drain();
    await x.engine.calls.syncNow();

    const result = await x.engine.calls.exportReports([id], x.out);
    const folder = result.reports[0]?.folder ?? '';
    expect(result.reports[0]?.missing).toEqual([]);
    const text = await readFile(join(folder, 'report.md'), 'utf8');
    const status = (await x.engine.calls.getReport(id))?.report?.status ?? '';
    expect(['triaging', 'needs_info']).toContain(status);
    expect(text).toContain(`status: ${status}`);
    expect(text).toMatch(/submitted_at: "?\d{4}-\d{2}-\d{2}T/);
    const thread = await readFile(join(folder, 'thread.md'), 'utf8');
    // Authors in words and times a person reads ("3 January 2026, 10:00 UTC"), not codes and ISO.
    const when = String.raw`\d{1,2} [A-Z][a-z]+ \d{4}, \d{2}:\d{2} UTC`;
    expect(thread).toMatch(new RegExp(String.raw`## Triage agent · ${when}\n\nWhich browser\?`));
    expect(thread).toMatch(
      new RegExp(
        String.raw`## You · ${when}\n\nFirefox 140; console attached\.\n\n- \[console\.log\]\(files/console\.log\)`,
      ),
    );
    expect(thread).not.toMatch(/## (agent|researcher|founder) ·|\d{4}-\d{2}-\d{2}T/);
    expect(await readFile(join(folder, 'files', 'console.log'), 'utf8')).toBe(
      'Uncaught TypeError at /settings\n',
    );
  });
});
