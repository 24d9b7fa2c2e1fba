import { afterEach, describe, expect, it } from 'vitest';
import { openHarness, type Harness } from './harness';

/** Issue 25: templates kept in the mirror, used for a new draft, edited and deleted. */
describe('researcher templates', () => {
  let h: Harness | null = null;
  afterEach(async () => {
    await h?.close();
    h = null;
  });

  it('saves a draft’s text with placeholders, starts a new draft from it, edits and deletes it', async () => {
    h = await openHarness();
    const x = h;
    await x.engine.connect({ serverUrl: x.sandbox.url, apiKey: x.key });
    await x.engine.session.syncNow(['reports', 'account', 'programs']);
    const program = x.programs.open;
    const draft = await x.engine.createDraft(program.id);
    await x.engine.saveDraft(draft.reportId, {
      title: 'IDOR on invoices',
      asset: 'https://billing.example.com',
      description:
        '## Steps to reproduce\n\nGET https://billing.example.com/api/invoices/2 as user 1\n\n## Security impact\n\nAny invoice of any customer.\n',
      cvss_vector: '',
    });
    const saved = await x.engine.saveTemplate({
      name: 'IDOR',
      body: (await x.engine.getReport(draft.reportId))?.draft?.content.description ?? '',
      fromReportId: draft.reportId,
    });
    expect(saved.body).toContain('GET {{asset}}/api/invoices/2');
    await expect(x.engine.saveTemplate({ name: 'idor', body: 'x' })).rejects.toMatchObject({
      field: 'name',
    });

    const next = await x.engine.startFromTemplate(program.id, saved.id, {
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

    const edited = await x.engine.saveTemplate({ id: saved.id, name: 'IDOR (API)', body: 'B' });
    expect((await x.engine.listTemplates()).map((t) => [t.name, t.body])).toEqual([
      ['IDOR (API)', 'B'],
    ]);
    // Kept across a restart (the local database), then deleted.
    await x.restart();
    expect((await x.engine.listTemplates()).map((t) => t.id)).toEqual([edited.id]);
    await x.engine.deleteTemplate(edited.id);
    expect(await x.engine.listTemplates()).toEqual([]);
    await expect(x.engine.deleteTemplate(edited.id)).rejects.toMatchObject({ field: 'id' });
  });
});
