import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { realFile } from '../support/real-corpus';
import { reportText } from '../support/report-texts';
import { harnessPerTest } from './harness';

/** Templates kept in the mirror, used for a new draft, edited and deleted. */
describe('researcher templates', () => {
  const open = harnessPerTest();

  it('saves a draft’s text with placeholders, starts a new draft from it, edits and deletes it', async () => {
    const x = await open();
    const program = x.programs.open;
    const draft = await x.engine.calls.createDraft(program.id);
    await x.engine.calls.saveDraft(draft.reportId, {
      title: 'IDOR on invoices',
      asset: 'https://billing.example.com',
      description:
        '## Steps to reproduce\n\nGET https://billing.example.com/api/invoices/2 as user 1\n\n## Security impact\n\nAny invoice of any customer.\n',
      cvss_vector: '',
    });
    const saved = await x.engine.calls.saveTemplate({
      name: 'IDOR',
      body: (await x.engine.calls.getReport(draft.reportId))?.draft?.content.description ?? '',
      fromReportId: draft.reportId,
    });
    expect(saved.body).toContain('GET {{asset}}/api/invoices/2');
    await expect(x.engine.calls.saveTemplate({ name: 'idor', body: 'x' })).rejects.toMatchObject({
      field: 'name',
    });

    const next = await x.engine.calls.startFromTemplate(program.id, saved.id, {
      title: 'IDOR on receipts',
      asset: 'https://shop.example.com',
    });
    expect(next.content.title).toBe('IDOR on receipts');
    expect(next.content.description).toBe(
      '## Steps to reproduce\n\nGET https://shop.example.com/api/invoices/2 as user 1\n\n' +
        '## Expected behavior\n\n## Actual behavior\n\n' +
        '## Security impact\n\nAny invoice of any customer.\n\n',
    );
    await x.engine.session.drain();
    const server = await x.sandbox.api<{ description: string; status: string }>(
      'GET',
      `/api/reports/${next.reportId}`,
      { token: x.key },
    );
    expect(server.body).toMatchObject({ status: 'draft', description: next.content.description });

    const edited = await x.engine.calls.saveTemplate({
      id: saved.id,
      name: 'IDOR (API)',
      body: 'B',
    });
    expect((await x.engine.calls.listTemplates()).map((t) => [t.name, t.body])).toEqual([
      ['IDOR (API)', 'B'],
    ]);
    // Kept across a restart (the local database), then deleted.
    await x.restart();
    expect((await x.engine.calls.listTemplates()).map((t) => t.id)).toEqual([edited.id]);
    await x.engine.calls.deleteTemplate(edited.id);
    expect(await x.engine.calls.listTemplates()).toEqual([]);
    await expect(x.engine.calls.deleteTemplate(edited.id)).rejects.toMatchObject({ field: 'id' });
  });

  it('templates go to Markdown files and come back; a bad file names its line and adds nothing', async () => {
    const x = await open(undefined, { sync: false });
    const dir = await mkdtemp(join(tmpdir(), 'templates-'));
    try {
      const body = '---\nnot: front matter\n---\n## Steps to reproduce\n\n1. {{asset}}\n';
      await x.engine.calls.saveTemplate({ name: 'SSRF: cloud "metadata"', body });
      const written = await x.engine.calls.exportTemplates(dir);
      expect(written).toEqual({ savedTo: dir, count: 1 });
      const [file = ''] = await readdir(dir);
      expect(file).toBe('SSRF_ cloud _metadata_.md');
      await x.engine.calls.deleteTemplate((await x.engine.calls.listTemplates())[0]?.id ?? '');

      const back = await x.engine.calls.importTemplates([dir]);
      expect(back.problems).toEqual([]);
      expect((await x.engine.calls.listTemplates()).map((t) => [t.name, t.body])).toEqual([
        ['SSRF: cloud "metadata"', body],
      ]);
      // Importing again: the name is taken, said at its line; a broken file too; nothing added.
      await writeFile(join(dir, 'broken.md'), '---\ntemplate: [x\nmore: y\n---\nbody\n');
      const again = await x.engine.calls.importTemplates([dir]);
      expect(again.created).toEqual([]);
      expect(again.problems.map((p) => [p.file, p.line, p.field])).toEqual([
        [file, 2, 'template'],
        ['broken.md', 2, 'template'],
      ]);
      expect(await x.engine.calls.listTemplates()).toHaveLength(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
  it('a template keeps no live credential: a request’s bearer token is redacted on save and on import, and named by line', async () => {
    const x = await open(undefined, { sync: false });
    // A real report's request (vulhub, influxdb CVE-2019-20933): a Bearer JWT, a blank line, a body.
    const text = reportText('vulhub--influxdb-CVE-2019-20933.md');
    const fence = text.lastIndexOf('```', text.indexOf('Authorization: Bearer'));
    const request = text.slice(fence, text.indexOf('```', fence + 3) + 3);
    const token = /Bearer (\S+)/.exec(request)?.[1] ?? '';
    expect(token.startsWith('eyJ')).toBe(true);
    const body = `## Steps to reproduce\n\nOn *.example.com, send:\n\n${request}\n\n## Security impact\n\nAny user.\n`;
    const tokenLine = body.split('\n').findIndex((l) => l.includes(token)) + 1;

    const saved = await x.engine.calls.saveTemplate({ name: 'InfluxDB JWT bypass', body });
    expect(saved.body).not.toContain(token);
    expect(saved.body).toContain('Authorization: Bearer [REDACTED:');
    expect(saved.body.replace(/\[REDACTED:[^\]]+\]/, 'X')).toBe(body.replace(token, 'X'));
    expect(saved.redacted).toEqual([{ kind: 'jwt', label: expect.any(String), line: tokenLine }]);
    expect((await x.engine.calls.listTemplates())[0]?.body).toBe(saved.body);
    // A template without credentials says nothing of them.
    expect(
      (await x.engine.calls.saveTemplate({ name: 'Plain', body: '## Impact\n' })).redacted,
    ).toBeUndefined();

    // A shared template file with someone's live token comes in redacted too.
    const dir = await mkdtemp(join(tmpdir(), 'templates-'));
    try {
      await writeFile(join(dir, 'shared.md'), `---\ntemplate: Shared InfluxDB\n---\n${body}`);
      const back = await x.engine.calls.importTemplates([dir]);
      expect(back.problems).toEqual([]);
      expect(back.created.map((c) => [c.file, c.redacted?.map((r) => r.line)])).toEqual([
        ['shared.md', [tokenLine]],
      ]);
      const imported = (await x.engine.calls.listTemplates()).find(
        (t) => t.name === 'Shared InfluxDB',
      );
      expect(imported?.body).toBe(saved.body);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a template keeps text, not files: the links to the draft’s image and file are left out and named', async () => {
    const x = await open();
    const program = x.programs.open;
    const a = await x.engine.calls.createDraft(program.id);
    const [photo, poc] = await x.engine.calls.attachFiles(a.reportId, [
      { path: await x.file('invoice-1002.jpg', realFile('images', 'exifr-img_1771.jpg')) },
      { path: await x.file('poc.txt', 'GET /api/invoices/1002\n') },
    ]);
    const link = (id: string | undefined) => `/reports/${a.reportId}/files/${id ?? ''}`;
    const description =
      '## Steps to reproduce\n\n1. Open invoice 1002 as another customer:\n\n' +
      `![invoice-1002.jpg](${link(photo?.fileId)})\n\n` +
      `2. Replay [the request](${link(poc?.fileId)}).\n\n## Security impact\n\nAny invoice.\n`;
    await x.engine.calls.saveDraft(a.reportId, {
      title: 'IDOR on invoices',
      asset: 'https://billing.example.com',
      description,
      cvss_vector: '',
    });
    const saved = await x.engine.calls.saveTemplate({
      name: 'IDOR with proof',
      body: description,
      fromReportId: a.reportId,
    });
    expect(saved.leftOut).toEqual(['invoice-1002.jpg', 'poc.txt']);
    expect(saved.body).not.toContain('/files/');
    expect(saved.body).toContain('2. Replay the request.');
    expect(saved.body).toContain('## Security impact\n\nAny invoice.');

    // A template written (or imported) with such links: the new draft still gets none.
    const old = await x.engine.calls.saveTemplate({ name: 'Written by hand', body: description });
    expect(old.leftOut).toEqual(['invoice-1002.jpg', 'poc.txt']);
    const b = await x.engine.calls.startFromTemplate(program.id, saved.id, {
      title: 'IDOR on receipts',
      asset: 'https://shop.example.com',
    });
    expect(b.content.description).not.toContain(a.reportId);
    expect((await x.engine.calls.getReport(b.reportId))?.evidence).toEqual([]);
    await x.engine.session.drain();
    const server = await x.sandbox.api<{ description: string }>(
      'GET',
      `/api/reports/${b.reportId}`,
      { token: x.key },
    );
    // What the new draft shows is what the server holds: nothing was dropped on the way.
    expect(server.body.description).toBe(b.content.description);
  });
});
