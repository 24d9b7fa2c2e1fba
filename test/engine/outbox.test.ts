import { describe, expect, it } from 'vitest';
import type { DraftContent } from '../../src/shared/bridge/views';
import {
  COMPLETE_DESCRIPTION,
  harnessPerTest,
  researcherMessages,
  routeCount,
  server,
  type Harness,
} from './harness';
import {
  dropBefore,
  failBefore,
  isMessagePost,
  rateLimited,
  scriptedFetch,
  type Step,
} from './scripted-fetch';
import { redact, scanText } from '../../src/engine/evidence/secret-scan/scan';
import { reportTexts } from '../support/report-texts';
import { waitFor, waitUntil } from '../support/wait';

/**
 * The outbox's guarantees one by one: file removal without file_referenced, withdraw, messages at
 * most once after uncertain outcomes, permanent 4xx parked without blocking other reports.
 */
const CONTENT: DraftContent = {
  title: 'SSRF through the avatar URL',
  asset: 'https://app.example.com/settings/avatar',
  description: COMPLETE_DESCRIPTION,
  cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:C/C:H/I:N/A:N',
};

interface Stats {
  by_status: Record<string, number>;
  by_route: Record<string, number>;
}

describe('engine outbox', () => {
  const open = harnessPerTest((h) => h.sandbox.clearFaults());

  /** The one message is on the server, once, and nothing waits for the user. */
  async function expectSentOnce(x: Harness, reportId: string, body: string): Promise<void> {
    expect((await researcherMessages(x, reportId)).map((m) => m.body)).toEqual([body]);
    expect((await x.engine.getStatus()).needsAction).toBe(0);
  }

  async function submitted(x: Harness, title = CONTENT.title): Promise<string> {
    const draft = await x.engine.calls.createDraft(x.programs.open.id);
    await x.engine.calls.saveDraft(draft.reportId, { ...CONTENT, title });
    await x.engine.calls.submit(draft.reportId);
    await x.engine.session.drain();
    expect((await server(x, draft.reportId)).status).toBe('triaging');
    return draft.reportId;
  }

  it('refuses a second submit while the first waits, naming the report: the report goes out once', async () => {
    const x = await open();
    const draft = await x.engine.calls.createDraft(x.programs.open.id);
    await x.engine.calls.saveDraft(draft.reportId, CONTENT);
    await x.engine.calls.submit(draft.reportId);
    await expect(x.engine.calls.submit(draft.reportId)).rejects.toMatchObject({
      field: 'report_id',
      message: expect.stringMatching(/being submitted already/),
    });
    const view = await x.engine.calls.getReport(draft.reportId);
    expect(view?.outbox.filter((e) => e.kind === 'submit')).toHaveLength(1);
    await x.engine.session.drain();
    expect((await server(x, draft.reportId)).status).toBe('triaging');
    expect(await routeCount(x, 'POST /api/reports/{report_id}/submit')).toBe(1);
  });

  it('removes a linked file: the link goes first, then DELETE, never 409 file_referenced', async () => {
    const x = await open();
    const draft = await x.engine.calls.createDraft(x.programs.open.id);
    await x.engine.calls.saveDraft(draft.reportId, CONTENT);
    const path = await x.file('request.txt', 'GET /avatar?url=http://169.254.169.254/\n');
    const [file] = await x.engine.calls.attachFiles(draft.reportId, [
      { path, insertAt: CONTENT.description.length },
    ]);
    const fileId = file?.fileId ?? '';
    await x.engine.session.drain();
    const linked = await server(x, draft.reportId);
    expect(linked.attachments[fileId]?.state).toBe('ready');
    expect(linked.description).toContain(`/reports/${draft.reportId}/files/${fileId}`);

    await x.engine.calls.removeFile(draft.reportId, fileId);
    await x.engine.session.drain();
    const after = await server(x, draft.reportId);
    expect(after.attachments).toEqual({});
    expect(after.description).not.toContain(fileId);
    const stats = await x.sandbox.control<Stats>('GET', '/__sandbox/stats');
    expect(stats.by_route['DELETE /api/reports/{report_id}/files/{file_id}']).toBe(1);
    expect(stats.by_status['409'] ?? 0).toBe(0);
    const view = await x.engine.calls.getReport(draft.reportId);
    expect(view?.evidence).toEqual([]);
    expect(view?.draft?.content.description).toBe(after.description);
  });

  it('removes a file whose upload answer was lost: the server keeps nothing the user removed', async () => {
    const x = await open();
    const draft = await x.engine.calls.createDraft(x.programs.open.id);
    await x.engine.calls.saveDraft(draft.reportId, CONTENT);
    await x.engine.session.drain();
    // Every answer is lost; half of the uploads are carried out all the same.
    await x.sandbox.faults({ rate: 1, reset_connection: true, seed: 3 });
    const paths = await Promise.all(
      ['a.txt', 'b.txt', 'c.txt', 'd.txt'].map((n) => x.file(n, `evidence ${n}\n`)),
    );
    const files = await x.engine.calls.attachFiles(
      draft.reportId,
      paths.map((path) => ({ path })),
    );
    // The first upload has been tried (its report's later entries wait behind it).
    await waitUntil(
      'the uploads to be tried',
      async () =>
        !!(await x.engine.calls.getReport(draft.reportId))?.outbox.some((e) => e.attempts > 1),
      { timeoutMs: 5_000, everyMs: 20 },
    );
    for (const file of files) await x.engine.calls.removeFile(draft.reportId, file.fileId);
    await x.sandbox.clearFaults();
    await x.engine.session.drain();
    expect((await server(x, draft.reportId)).attachments).toEqual({});
  });

  it('real report texts with bearer tokens and JSON bodies: saved through lost answers, each arrives exactly (found/total)', async () => {
    const x = await open();
    // The draft, and every real report holding a bearer value, as the credential check
    // lets them go (redacted, as "Redact" does).
    const given = [
      {
        name: 'redacted bearer request',
        text: 'Authorization: Bearer [REDACTED:jwt]\n\n{"ok": true}',
      },
      ...reportTexts().filter((r) => /Bearer /.test(r.text)),
    ];
    const texts = await Promise.all(
      given.map(async (r) => ({ ...r, text: redact(r.text, await scanText(r.text)) })),
    );
    const drafts: string[] = [];
    for (const { name } of texts) {
      const draft = await x.engine.calls.createDraft(x.programs.open.id);
      await x.engine.calls.saveDraft(draft.reportId, { ...CONTENT, title: name });
      drafts.push(draft.reportId);
    }
    await x.engine.session.drain();
    // Every answer lost (some saves carried out all the same), an edit after the first try, back.
    await x.sandbox.faults({ rate: 1, reset_connection: true, seed: 33 });
    for (const [i, id] of drafts.entries()) {
      const { name, text } = texts[i] ?? { name: '', text: '' };
      await x.engine.calls.saveDraft(id, { ...CONTENT, title: name, description: text });
    }
    const tried = async (id: string): Promise<boolean> =>
      !!(await x.engine.calls.getReport(id))?.outbox.some((e) => e.attempts > 0);
    await waitUntil(
      'the saves to be tried',
      async () => (await Promise.all(drafts.map(tried))).every(Boolean),
      { timeoutMs: 60_000, everyMs: 50 },
    );
    for (const [i, id] of drafts.entries()) {
      const { name, text } = texts[i] ?? { name: '', text: '' };
      await x.engine.calls.saveDraft(id, {
        ...CONTENT,
        title: name,
        description: `${text}\nMore.`,
      });
    }
    await x.sandbox.clearFaults();
    await x.engine.session.drain();
    let arrived = 0;
    for (const [i, id] of drafts.entries()) {
      const { name, text } = texts[i] ?? { name: '', text: '' };
      const report = await server(x, id);
      if (report.description === `${text}\nMore.`) arrived++;
      expect(report.description, name).toBe(`${text}\nMore.`);
      expect((await x.engine.calls.getReport(id))?.outbox, name).toEqual([]);
    }
    console.log(
      `real report texts saved through lost answers: ${arrived}/${texts.length} arrived exactly`,
    );
    expect((await x.engine.getStatus()).needsAction).toBe(0);
  }, 180_000);

  it('withdraws a submitted report and discards a draft', async () => {
    const x = await open();
    const id = await submitted(x);
    await x.engine.calls.withdraw(id);
    const draft = await x.engine.calls.createDraft(x.programs.open.id);
    await x.engine.calls.saveDraft(draft.reportId, CONTENT);
    await x.engine.calls.withdraw(draft.reportId);
    await x.engine.session.drain();
    expect((await server(x, id)).status).toBe('withdrawn');
    expect((await server(x, draft.reportId)).status).toBe('withdrawn');
    expect((await x.engine.calls.getReport(id))?.report?.status).toBe('withdrawn');
    expect((await x.engine.calls.getReport(draft.reportId))?.draft).toBeNull();
  });

  it('sends each message exactly once through dropped connections and server errors', async () => {
    const x = await open();
    const id = await submitted(x);
    await x.sandbox.faults({
      rate: 0.4,
      statuses: [500, 503],
      reset_connection: true,
      seed: 13,
    });
    const bodies = Array.from(
      { length: 12 },
      (_, i) => `Detail ${i}: the request reaches 10.0.0.${i}.`,
    );
    bodies.push(bodies[0] as string); // the same text twice is two messages
    for (const body of bodies) await x.engine.calls.postMessage(id, { body, filePaths: [] });
    const shot = await x.file('metadata.txt', 'ami-id\nhostname\n');
    await x.engine.calls.postMessage(id, { body: 'With the response.', filePaths: [shot] });
    await x.engine.session.drain(60_000);
    await x.sandbox.clearFaults();
    const stats = await x.sandbox.control<Stats>('GET', '/__sandbox/stats');
    expect(stats.by_status['0'] ?? 0).toBeGreaterThan(0);
    const sent = await researcherMessages(x, id);
    expect(sent.map((m) => m.body)).toEqual([...bodies, 'With the response.']);
    expect(sent.at(-1)?.attachments.map((a) => a.name)).toEqual(['metadata.txt']);
    expect((await x.engine.getStatus()).needsAction).toBe(0);
  });

  it('after a timeout reads the thread before sending the message again', async () => {
    // The engine's own requests in order, as they leave through the real fetch. The first post
    // reaches the server only after the client stopped waiting for it (a slow network): nobody
    // knows whether it was carried out.
    const sent: string[] = [];
    let delayed = false;
    const lateFetch = async (request: Request): Promise<Response> => {
      if (request.url.includes('/messages')) sent.push(request.method);
      if (request.method !== 'POST' || !request.url.endsWith('/messages') || delayed) {
        return fetch(request);
      }
      delayed = true;
      const late = new Request(request.url, {
        method: 'POST',
        headers: request.headers,
        body: await request.text(),
      });
      setTimeout(() => void fetch(late), 450);
      return new Promise<Response>((_, reject) =>
        request.signal.addEventListener('abort', () => reject(request.signal.reason as Error), {
          once: true,
        }),
      );
    };
    const x = await open(undefined, { engine: { timeouts: { jsonMs: 300 }, fetch: lateFetch } });
    const id = await submitted(x);
    await x.engine.calls.postMessage(id, { body: 'Sent once, answered too late.', filePaths: [] });
    await waitFor(
      'the post to time out',
      async () =>
        (await x.engine.calls.getReport(id))?.outbox.find((e) => e.kind === 'post_message'),
      (entry) => entry?.error?.code === 'timeout',
      { timeoutMs: 5_000, everyMs: 10 },
    );
    await x.engine.session.drain();
    expect((await researcherMessages(x, id)).map((m) => m.body)).toEqual([
      'Sent once, answered too late.',
    ]);
    // The read that marks the thread, the lost post, then the read (after waiting as long as the
    // lost post took) that finds it: no second post.
    expect(sent.slice(0, 3)).toEqual(['GET', 'POST', 'GET']);
    expect(sent.filter((method) => method === 'POST')).toHaveLength(1);
  });

  it('429s and lost connections never use up the retries a server error has', async () => {
    // Found by the chaos test: a reply that met seven 429s and drops on a busy line gave up at
    // its first 500, because every attempt counted against the budget of server errors.
    const transport = scriptedFetch(isMessagePost);
    const x = await open(undefined, { engine: { fetch: transport.fetch } });
    const id = await submitted(x);
    const busyLine: Step[] = Array.from({ length: 12 }, (_, i) =>
      i % 2 === 0 ? rateLimited : dropBefore,
    );
    transport.script(...busyLine, failBefore, failBefore);
    await x.engine.calls.postMessage(id, { body: 'Sent through a busy line.', filePaths: [] });
    await x.engine.session.drain(30_000);
    expect(transport.seen).toHaveLength(15);
    await expectSentOnce(x, id, 'Sent through a busy line.');
  });

  it('parks after eight server errors, and Retry gives the entry its eight again', async () => {
    const transport = scriptedFetch(isMessagePost);
    const x = await open(undefined, { engine: { fetch: transport.fetch } });
    const id = await submitted(x);
    transport.script(...Array.from({ length: 8 }, () => failBefore));
    await x.engine.calls.postMessage(id, { body: 'The server is broken today.', filePaths: [] });
    await x.engine.session.drain(30_000);
    const parked = (await x.engine.calls.getReport(id))?.outbox.find((e) => e.state === 'parked');
    expect(parked?.error?.code).toBe('internal_error');
    expect(parked?.attempts).toBe(8);
    expect(transport.seen).toHaveLength(8);
    expect((await x.engine.getStatus()).needsAction).toBe(1);
    // The user presses Retry: seven more server errors do not park it again.
    transport.script(...Array.from({ length: 7 }, () => failBefore));
    await x.engine.calls.retryEntry(parked?.id ?? -1);
    await x.engine.session.drain(30_000);
    expect(transport.seen).toHaveLength(16);
    await expectSentOnce(x, id, 'The server is broken today.');
  });

  it('parks a permanent 4xx with its error, never retries it, and other reports go on', async () => {
    const x = await open();
    const closed = await submitted(x, 'Decided already');
    const other = await submitted(x, 'Still open');
    await x.sandbox.act(closed, { actor: 'founder', status: 'rejected', message: 'Out of scope.' });
    await x.engine.calls.postMessage(closed, { body: 'But please look again.', filePaths: [] });
    await x.engine.calls.postMessage(other, { body: 'One more detail.', filePaths: [] });
    await x.engine.session.drain();
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const parked = (await x.engine.calls.getReport(closed))?.outbox.find(
      (e) => e.state === 'parked',
    );
    expect(parked?.kind).toBe('post_message');
    expect(parked?.attempts).toBe(1);
    expect(parked?.error?.code).toBe('invalid_state');
    expect(parked?.error?.title).toBe('Not possible in the current status');
    expect((await researcherMessages(x, other)).map((m) => m.body)).toEqual(['One more detail.']);
    expect(await researcherMessages(x, closed)).toEqual([]);
    const stats = await x.sandbox.control<Stats>('GET', '/__sandbox/stats');
    expect(stats.by_route['POST /api/reports/{report_id}/messages']).toBe(2);
    // The user gives up on it: discarding clears "needs your action".
    await x.engine.calls.discardEntry(parked?.id ?? -1);
    expect((await x.engine.getStatus()).needsAction).toBe(0);
  });
});
