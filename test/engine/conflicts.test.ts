import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY } from '../../src/engine/api';
import { Engine, type EngineOptions } from '../../src/engine/commands';
import { KeychainSecretStore } from '../../src/engine/secrets';
import {
  FAST_RETRY,
  harnessPerFile,
  routeCount,
  saveElsewhere,
  server,
  type Harness,
} from './harness';
import { completeDraft } from '../support/drafts';

/**
 * Revision conflicts with a second client changing the same draft (direct HTTP with the same key,
 * or a second Engine on another data folder): different fields merge cleanly, the same field
 * differently waits for the user without overwriting either side, and description edits on
 * different lines merge line by line.
 */
/** DEFAULT_RETRY_POLICY.networkRetries: the resends of one attempt after no answer. */
const FAST_RETRY_NETWORK_RESENDS = DEFAULT_RETRY_POLICY.networkRetries;

const BASE = completeDraft('IDOR on invoices', 'https://billing.example.com/invoices');

describe('engine: revision conflicts with a second client', () => {
  let h: Harness;

  harnessPerFile((opened) => (h = opened));

  /**
   * Another client of the same account: an engine on a data folder of its own, signed in with the
   * same key, closed and its folder removed after `use`.
   */
  async function withSecondEngine(
    options: Partial<EngineOptions>,
    use: (engine: Engine) => Promise<void>,
  ): Promise<void> {
    const dataDir = await mkdtemp(join(tmpdir(), 'engine-second-'));
    const engine = new Engine({
      dataDir,
      secrets: new KeychainSecretStore(),
      retry: FAST_RETRY,
      cadences: { afterActionMs: 60_000 },
      ...options,
    });
    try {
      await engine.connect({ serverUrl: h.sandbox.url, apiKey: h.key });
      await use(engine);
    } finally {
      await engine.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }

  async function newDraft(): Promise<string> {
    const draft = await h.engine.calls.createDraft(h.programs.open.id);
    await h.engine.calls.saveDraft(draft.reportId, BASE);
    await h.engine.session.drain();
    return draft.reportId;
  }

  const putCount = (): Promise<number> => routeCount(h, 'PUT /api/reports/{report_id}');

  it('different fields: a clean three-way merge puts both changes on the server', async () => {
    const id = await newDraft();
    await saveElsewhere(h, id, { title: 'IDOR on invoices (theirs)' });
    await h.engine.calls.saveDraft(id, {
      ...BASE,
      asset: 'https://billing.example.com/api/invoices',
    });
    await h.engine.session.drain();
    const report = await server(h, id);
    expect(report.title).toBe('IDOR on invoices (theirs)');
    expect(report.asset).toBe('https://billing.example.com/api/invoices');
    const view = await h.engine.calls.getReport(id);
    expect(view?.draft?.conflicts).toEqual([]);
    expect(view?.draft?.content.title).toBe('IDOR on invoices (theirs)');
    expect(view?.draft?.baseRevision).toBe(report.revision);
    expect(view?.outbox.filter((e) => e.state !== 'done')).toEqual([]);
  });

  it('the same field differently: marked in conflict, nothing overwrites either side, then resolved', async () => {
    const id = await newDraft();
    await saveElsewhere(h, id, { title: 'Theirs: IDOR via invoice id' });
    const before = await server(h, id);
    const puts = await putCount();
    await h.engine.calls.saveDraft(id, {
      ...BASE,
      title: 'Ours: IDOR via sequential ids',
      cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N',
    });
    await h.engine.calls.submit(id);
    await h.engine.session.drain();

    const view = await h.engine.calls.getReport(id);
    expect(view?.draft?.conflicts).toEqual([
      {
        field: 'title',
        base: BASE.title,
        ours: 'Ours: IDOR via sequential ids',
        theirs: 'Theirs: IDOR via invoice id',
      },
    ]);
    const parked = view?.outbox.find((e) => e.state === 'parked');
    expect(parked?.kind).toBe('save_report');
    expect(parked?.error?.code).toBe('merge_conflict');
    // Exactly one PUT (the one answered 409): no save, no submit went out after it.
    expect(await putCount()).toBe(puts + 1);
    const untouched = await server(h, id);
    expect(untouched.revision).toBe(before.revision);
    expect(untouched.title).toBe('Theirs: IDOR via invoice id');
    expect(untouched.status).toBe('draft');
    expect((await h.engine.calls.listReports({})).items.find((r) => r.id === id)?.conflict).toBe(
      true,
    );

    await h.engine.calls.resolveConflicts(id, { title: 'ours' });
    await h.engine.session.drain();
    const resolved = await server(h, id);
    expect(resolved.title).toBe('Ours: IDOR via sequential ids');
    // The field only we changed went out with it, and the queued submit followed.
    expect(resolved.submission?.content.cvss_vector).toBe(
      'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N',
    );
    expect(resolved.status).toBe('triaging');
    expect((await h.engine.calls.getReport(id))?.draft).toBeNull();
  });

  it('the description edited on different lines by a second engine: a line-level merge', async () => {
    const id = await newDraft();
    await withSecondEngine({}, async (second) => {
      await second.calls.syncNow();
      const theirs = BASE.description.replace(
        'The redirect target is rejected.',
        'The redirect target is rejected with 400.',
      );
      const seen = await second.calls.getReport(id);
      expect(seen?.draft?.content.description).toBe(BASE.description);
      await second.calls.saveDraft(id, { ...BASE, description: theirs });
      await second.session.drain();
    });
    const ours = BASE.description.replace(
      'Session theft through a crafted link.',
      'Session theft through a crafted link sent by e-mail.',
    );
    await h.engine.calls.saveDraft(id, { ...BASE, description: ours });
    await h.engine.session.drain();
    const report = await server(h, id);
    expect(report.description).toContain('The redirect target is rejected with 400.');
    expect(report.description).toContain('Session theft through a crafted link sent by e-mail.');
    expect((await h.engine.calls.getReport(id))?.draft?.conflicts).toEqual([]);
  });

  it('our own save whose answer was lost is not a conflict with ourselves', async () => {
    // The answer of one save is lost after the server carried it out, and the user types on
    // meanwhile: the retry meets 409 with our own earlier content as "theirs".
    // Every answer of the attempt is lost: the API client's own resends (the same body) too.
    let dropSaves = 0;
    let typeMeanwhile: (() => Promise<unknown>) | null = null;
    const losingFetch = async (request: Request): Promise<Response> => {
      const response = await fetch(request);
      if (dropSaves > 0 && request.method === 'PUT' && !request.url.includes('/files/')) {
        dropSaves--;
        const type = typeMeanwhile;
        typeMeanwhile = null;
        await type?.();
        throw new TypeError('fetch failed: the connection closed before the answer');
      }
      return response;
    };
    await withSecondEngine({ fetch: losingFetch }, async (engine) => {
      const draft = await engine.calls.createDraft(h.programs.open.id);
      await engine.calls.saveDraft(draft.reportId, BASE);
      await engine.session.drain();
      const id = draft.reportId;
      typeMeanwhile = () =>
        engine.calls.saveDraft(id, { ...BASE, title: 'Second edit of the title' });
      dropSaves = 1 + FAST_RETRY_NETWORK_RESENDS;
      await engine.calls.saveDraft(id, { ...BASE, title: 'First edit of the title' });
      await engine.session.drain();
      expect(dropSaves).toBe(0);
      const view = await engine.calls.getReport(id);
      expect(view?.draft?.conflicts).toEqual([]);
      expect(view?.outbox.filter((e) => e.state !== 'done')).toEqual([]);
      expect((await server(h, id)).title).toBe('Second edit of the title');
    });
  });
});
