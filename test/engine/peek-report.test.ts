import { describe, expect, it } from 'vitest';
import { randomUUID } from '../support/random';
import { harnessPerFile, routeCount, type Harness } from './harness';
import { completeDraft } from '../support/drafts';

/**
 * `peekReport`, the read the renderer makes of the rows its list shows: the mirror's view as
 * `getReport` answers it, and never a request to the service (a row merely shown is no reason to
 * download it). `getReport` of the same report downloads it on demand.
 */
describe('engine: peekReport reads the mirror only', () => {
  let h: Harness;
  harnessPerFile((opened) => (h = opened));

  const reportGets = (): Promise<number> => routeCount(h, 'GET /api/reports/{report_id}');

  it('answers a mirrored report as getReport does', async () => {
    const draft = await h.engine.calls.createDraft(h.programs.open.id);
    const content = completeDraft(
      'IDOR on *.example.com invoices',
      'https://billing.example.com/invoices',
    );
    await h.engine.calls.saveDraft(draft.reportId, {
      ...content,
      description: `${content.description}\n\n\`\`\`http\nGET /api/invoices/7 HTTP/1.1\nAuthorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.x\n\n{"id": 7}\n\`\`\`\n\nC:\\Users\\me\\poc.txt`,
    });
    const peeked = await h.engine.calls.peekReport(draft.reportId);
    expect(peeked?.draft?.content.description).toContain('Authorization: Bearer');
    expect(peeked).toEqual(await h.engine.calls.getReport(draft.reportId));
  });

  it('answers null for a report the mirror lacks, and asks the service nothing', async () => {
    const unknown = randomUUID();
    const before = await reportGets();
    expect(await h.engine.calls.peekReport(unknown)).toBeNull();
    // Given time to start a request, had it made one.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await reportGets()).toBe(before);

    // Opening it is another matter: getReport downloads it on demand.
    const opened = await h.engine.calls.getReport(unknown);
    expect(opened?.download?.state).toBe('downloading');
    const deadline = Date.now() + 10_000;
    while ((await reportGets()) === before && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await reportGets()).toBe(before + 1);
  });
});
