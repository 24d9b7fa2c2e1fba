import { describe, expect, it } from 'vitest';
import type { DraftContent } from '../../src/shared/bridge/views';
import { harnessPerFile, server, type Harness } from './harness';
import { completeDraft } from '../support/drafts';

/**
 * The editor saves what the user typed together with `basedOn`, the content it last received.
 * When the engine changed the draft meanwhile (the server's edits followed by the sync), a save
 * from an editor that had not seen them yet must not undo them.
 */
const BASE = completeDraft('SSRF in the PDF renderer', 'https://docs.example.com/render');

describe('engine: saves from an editor that has not seen the latest merge', () => {
  let h: Harness;

  harnessPerFile((opened) => (h = opened));

  /** A draft on the server, then another client's change that the sync brings into the mirror. */
  async function draftChangedElsewhere(change: Partial<DraftContent>): Promise<string> {
    const { reportId } = await h.engine.calls.createDraft(h.programs.open.id);
    await h.engine.calls.saveDraft(reportId, BASE);
    await h.engine.session.drain();
    const current = await server(h, reportId);
    const res = await h.sandbox.api('PUT', `/api/reports/${reportId}`, {
      token: h.key,
      body: { program_id: current.program_id, ...BASE, ...change, revision: current.revision },
    });
    expect(res.status).toBe(200);
    await h.engine.session.syncNow(['reports']);
    const local = (await h.engine.calls.getReport(reportId))?.draft?.content;
    expect(local).toMatchObject(change);
    return reportId;
  }

  it('an edit of another field is merged into the newer local content, and both reach the server', async () => {
    const id = await draftChangedElsewhere({ title: 'SSRF in the PDF renderer (triaged title)' });
    const typed = { ...BASE, asset: 'https://docs.example.com/render/v2' };
    const view = await h.engine.calls.saveDraft(id, typed, BASE);
    expect(view.content.title).toBe('SSRF in the PDF renderer (triaged title)');
    expect(view.content.asset).toBe('https://docs.example.com/render/v2');
    expect(view.conflicts).toEqual([]);
    await h.engine.session.drain();
    const report = await server(h, id);
    expect(report.title).toBe('SSRF in the PDF renderer (triaged title)');
    expect(report.asset).toBe('https://docs.example.com/render/v2');
  });

  it('a different edit of the same field keeps both for the user and sends neither', async () => {
    const id = await draftChangedElsewhere({ title: 'Their title' });
    const view = await h.engine.calls.saveDraft(id, { ...BASE, title: 'My title' }, BASE);
    expect(view.conflicts).toEqual([
      expect.objectContaining({ field: 'title', ours: 'My title', theirs: 'Their title' }),
    ]);
    await h.engine.session.drain();
    expect((await server(h, id)).title).toBe('Their title');
    const resolved = await h.engine.calls.resolveConflicts(id, { title: 'ours' });
    expect(resolved.conflicts).toEqual([]);
    await h.engine.session.drain();
    expect((await server(h, id)).title).toBe('My title');
  });

  it('without basedOn (or when nothing changed meanwhile) the typed content is saved as it is', async () => {
    const { reportId } = await h.engine.calls.createDraft(h.programs.open.id);
    const first = await h.engine.calls.saveDraft(reportId, BASE);
    const second = await h.engine.calls.saveDraft(
      reportId,
      { ...BASE, title: 'Edited' },
      first.content,
    );
    expect(second.content.title).toBe('Edited');
    expect(second.conflicts).toEqual([]);
  });
});
