import { randomUUID } from '../support/random';
import { describe, expect, it } from 'vitest';
import { contentTypeFor } from '../../src/engine/commands/content-type';
import type { Report } from '../support/sandbox-client';
import {
  COMPLETE_DESCRIPTION,
  harnessPerTest,
  researcherMessages,
  saveElsewhere,
  server,
  type Harness,
} from './harness';
import {
  after,
  failBefore,
  forward,
  isDraftSave,
  isFileUpload,
  isMessagePost,
  loseAnswer,
  scriptedFetch,
  type ScriptedFetch,
  type Step,
} from './scripted-fetch';
import { completeDraft } from '../support/drafts';

/**
 * The outbox when others write to the same report: the website (another client of the
 * same account, plain HTTP) posts the same text and edits the draft; refused calls leave nothing
 * behind; abandoned message files are reused or deleted; done entries are pruned.
 */
const CONTENT = completeDraft('Open redirect after sign-in', 'https://app.example.com/login');

interface Stats {
  by_route: Record<string, number>;
}

describe('the outbox with another writer on the same report', () => {
  const openConnected = harnessPerTest();
  const open = (transport?: ScriptedFetch): Promise<Harness> =>
    openConnected(undefined, { engine: transport ? { fetch: transport.fetch } : {} });

  /** The website: the same account, plain HTTP. */
  async function websitePost(x: Harness, reportId: string, body: string): Promise<void> {
    const res = await x.sandbox.api('POST', `/api/reports/${reportId}/messages`, {
      token: x.key,
      body: { body, files: [] },
    });
    expect(res.status).toBe(200);
  }

  async function draft(x: Harness): Promise<string> {
    const created = await x.engine.calls.createDraft(x.programs.open.id);
    await x.engine.calls.saveDraft(created.reportId, CONTENT);
    await x.engine.session.drain();
    return created.reportId;
  }

  async function submitted(x: Harness): Promise<string> {
    const id = await draft(x);
    await x.engine.calls.submit(id);
    await x.engine.session.drain();
    expect((await server(x, id)).status).toBe('triaging');
    return id;
  }

  const pendingMessageFiles = (report: Report) =>
    Object.values(report.attachments).filter((a) => a.reply === true && !a.message_id);

  const outboxEntries = (x: Harness) => x.engine.session.store.outbox.list({ includeDone: true });

  const parkedEntry = async (x: Harness, reportId: string) =>
    (await x.engine.calls.getReport(reportId))?.outbox.find((e) => e.state === 'parked');

  describe('messages: a match must be one this attempt could have made', () => {
    const TEXT = 'Any update?';

    /**
     * The website posts TEXT on a submitted report (then the app syncs, with `syncFirst`); the app
     * posts the same TEXT, its call answered as `step` says. What the transport saw, and the
     * researcher's messages on the server after the outbox drained.
     */
    async function sameTextAsWebsite(
      step: (x: Harness, id: string) => Step,
      options: { syncFirst?: boolean } = {},
    ): Promise<{ x: Harness; seen: string[]; bodies: string[] }> {
      const transport = scriptedFetch(isMessagePost);
      const x = await open(transport);
      const id = await submitted(x);
      await websitePost(x, id, TEXT);
      if (options.syncFirst) await x.engine.session.syncNow(['reports']);
      transport.script(step(x, id));
      await x.engine.calls.postMessage(id, { body: TEXT, filePaths: [] });
      await x.engine.session.drain();
      const bodies = (await researcherMessages(x, id)).map((m) => m.body);
      return { x, seen: transport.seen, bodies };
    }

    it('sends after a 500 although the thread already holds the same text from the website', async () => {
      const { x, seen, bodies } = await sameTextAsWebsite(() => failBefore, { syncFirst: true });
      expect(seen).toHaveLength(2);
      expect(bodies).toEqual([TEXT, TEXT]);
      expect(outboxEntries(x)).toEqual([]);
    });

    it('does not send again when the lost answer was for a post the server carried out', async () => {
      const { seen, bodies } = await sameTextAsWebsite(() => loseAnswer);
      expect(seen).toHaveLength(1);
      expect(bodies).toEqual([TEXT, TEXT]);
    });

    it('counts one identical website post made while its own answer was lost, and sends no third', async () => {
      // Our post is carried out; before the app hears back (it never does), the website posts
      // the same text. Two identical messages follow the mark: one of them is ours, whichever.
      const { seen, bodies } = await sameTextAsWebsite((x, id) => async (request) => {
        await fetch(request);
        await websitePost(x, id, TEXT);
        throw new TypeError('fetch failed: the connection was reset');
      });
      expect(seen).toHaveLength(1);
      expect(bodies).toEqual([TEXT, TEXT, TEXT]);
    });
  });

  describe('refused calls leave nothing queued and no file on the server', () => {
    it('a reply with an empty file, tried three times, uploads nothing', async () => {
      const x = await open();
      const id = await submitted(x);
      const poc = await x.file('poc.txt', 'GET /login?next=//evil.example\n');
      const empty = await x.file('empty.txt', '');
      for (let i = 0; i < 3; i++) {
        await expect(
          x.engine.calls.postMessage(id, { body: 'Here is the proof.', filePaths: [poc, empty] }),
        ).rejects.toThrow(/empty\.txt.*empty/);
      }
      await x.engine.session.drain();
      expect(pendingMessageFiles(await server(x, id))).toEqual([]);
      expect(outboxEntries(x)).toEqual([]);
      expect(x.engine.session.store.evidence.listForReport(id)).toEqual([]);
      expect(await researcherMessages(x, id)).toEqual([]);

      // The same reply without the empty file goes through with exactly its one file.
      await x.engine.calls.postMessage(id, { body: 'Here is the proof.', filePaths: [poc] });
      await x.engine.session.drain();
      const [sent] = await researcherMessages(x, id);
      expect(sent?.attachments.map((a) => a.name)).toEqual(['poc.txt']);
      expect(Object.keys((await server(x, id)).attachments)).toHaveLength(1);
    });

    it('attachFiles with one bad file queues none of them', async () => {
      const x = await open();
      const id = await draft(x);
      const good = await x.file('good.txt', 'evidence\n');
      const empty = await x.file('empty.txt', '');
      await expect(
        x.engine.calls.attachFiles(id, [
          { path: good, insertAt: CONTENT.description.length },
          { path: empty },
        ]),
      ).rejects.toThrow(/empty\.txt/);
      expect(x.engine.session.store.outbox.countUnsent()).toBe(0);
      await x.engine.session.drain();
      const report = await server(x, id);
      expect(report.attachments).toEqual({});
      expect(report.description).toBe(CONTENT.description);
      expect((await x.engine.calls.getReport(id))?.draft?.content.description).toBe(
        CONTENT.description,
      );
    });

    it('attachFiles beyond the draft’s 10 files queues none of them', async () => {
      const x = await open();
      const id = await draft(x);
      const paths = await Promise.all(
        Array.from({ length: 11 }, (_, i) => x.file(`shot-${i}.txt`, `evidence ${i}\n`)),
      );
      await expect(
        x.engine.calls.attachFiles(
          id,
          paths.map((path) => ({ path })),
        ),
      ).rejects.toThrow(/at most 10 files/);
      expect(x.engine.session.store.outbox.countUnsent()).toBe(0);
      expect(x.engine.session.store.evidence.listForReport(id)).toEqual([]);
    });

    it('a message on a draft is refused before its files are queued', async () => {
      const x = await open();
      const id = await draft(x);
      const log = await x.file('server.log', '302 Location: //evil.example\n');
      await expect(
        x.engine.calls.postMessage(id, { body: 'See the log.', filePaths: [log] }),
      ).rejects.toThrow(/draft takes no messages/);
      expect(x.engine.session.store.outbox.countUnsent()).toBe(0);
      await x.engine.session.drain();
      expect((await server(x, id)).attachments).toEqual({});
    });
  });

  describe('message files no message will send', () => {
    /** Two replies held by an unverified e-mail: the first one's file is already uploaded. */
    async function heldReplies(x: Harness, id: string, poc: string) {
      await x.sandbox.patchAccount(x.account.uid, { email_verified: false });
      await x.engine.calls.postMessage(id, { body: 'With the proof.', filePaths: [poc] });
      await x.engine.session.drain();
      const first = await parkedEntry(x, id);
      expect(first?.error?.code).toBe('email_unverified');
      expect(pendingMessageFiles(await server(x, id))).toHaveLength(1);
      return first?.id ?? -1;
    }

    it('discarding a reply deletes its uploaded files from the server', async () => {
      const x = await open();
      const id = await submitted(x);
      const first = await heldReplies(x, id, await x.file('poc.txt', 'proof\n'));
      await x.engine.calls.discardEntry(first);
      await x.engine.session.drain();
      expect(pendingMessageFiles(await server(x, id))).toEqual([]);
      expect(x.engine.session.store.evidence.listForReport(id)).toEqual([]);
      expect(outboxEntries(x)).toEqual([]);
    });

    it('a file sent again after its reply was discarded is reused, not uploaded twice', async () => {
      const x = await open();
      const id = await submitted(x);
      const poc = await x.file('poc.txt', 'proof\n');
      const first = await heldReplies(x, id, poc);
      const [uploaded] = pendingMessageFiles(await server(x, id));
      // A second reply waits behind the first; once the first is discarded it is parked too, so
      // the deletion of the first one's file waits behind it.
      await x.engine.calls.postMessage(id, { body: 'A second thought.', filePaths: [] });
      await x.engine.calls.discardEntry(first);
      await x.engine.session.drain();
      const second = await parkedEntry(x, id);
      expect(second?.kind).toBe('post_message');

      await x.engine.calls.postMessage(id, { body: 'Here it is again.', filePaths: [poc] });
      await x.sandbox.patchAccount(x.account.uid, { email_verified: true });
      await x.engine.calls.retryEntry(second?.id ?? -1);
      await x.engine.session.drain();

      const sent = await researcherMessages(x, id);
      expect(sent.map((m) => m.body)).toEqual(['A second thought.', 'Here it is again.']);
      const report = await server(x, id);
      expect(Object.keys(report.attachments)).toEqual(sent[1]?.attachments.map((a) => a.id) ?? []);
      expect(report.attachments[sent[1]?.attachments[0]?.id ?? '']?.sha256).toBe(uploaded?.sha256);
      const stats = await x.sandbox.control<Stats>('GET', '/__sandbox/stats');
      expect(stats.by_route['PUT /api/reports/{report_id}/files/{file_id}']).toBe(1);
      expect(outboxEntries(x)).toEqual([]);
    });

    it('files an earlier version uploaded for a refused reply are deleted at start', async () => {
      const x = await open();
      const id = await submitted(x);
      // What the version before this fix left: the upload queued, the reply then refused.
      const store = x.engine.session.store;
      const fileId = randomUUID();
      const evidence = await store.evidence.add({
        reportId: id,
        fileId,
        name: 'poc.txt',
        contentType: contentTypeFor('poc.txt'),
        sourcePath: await x.file('poc.txt', 'proof\n'),
        purpose: 'message',
      });
      const { name, contentType: content_type, size, sha256 } = evidence;
      store.outbox.enqueue({
        reportId: id,
        kind: 'upload_file',
        payload: { file_id: fileId, name, content_type, size, sha256 },
      });
      await x.engine.session.drain();
      expect(pendingMessageFiles(await server(x, id))).toHaveLength(1);

      const engine = await x.restart();
      await engine.session.drain();
      expect(pendingMessageFiles(await server(x, id))).toEqual([]);
      expect(engine.session.store.evidence.listForReport(id)).toEqual([]);
    });
  });

  describe('draft writes: matches another writer could have produced', () => {
    it('an upload meant for a draft the website submitted meanwhile waits instead of landing as a stray message file', async () => {
      const x = await open();
      const id = await draft(x);
      const current = await server(x, id);
      const res = await x.sandbox.api('POST', `/api/reports/${id}/submit`, {
        token: x.key,
        body: { revision: current.revision },
      });
      expect(res.status).toBe(200);

      await x.engine.calls.attachFiles(id, [{ path: await x.file('late.txt', 'late evidence\n') }]);
      await x.engine.session.drain();
      const parked = await parkedEntry(x, id);
      expect(parked?.kind).toBe('upload_file');
      expect(parked?.error?.code).toBe('invalid_state');
      expect((await server(x, id)).attachments).toEqual({});
    });

    it('an upload repeated after a lost answer returns the website’s newer edit: it is merged, never undone by the next save', async () => {
      // The API lets the same file be sent again at any revision and answers with the report as
      // it is now. Taking that answer as the new base without merging its content made the next
      // save "change" the website's line back (the chaos run's seed 72024).
      const transport = scriptedFetch(isFileUpload);
      const x = await open(transport);
      const id = await draft(x);
      const noted = CONTENT.description.replace(
        'The redirect target is rejected.',
        'The redirect target is rejected (website).',
      );
      transport.script(async (request) => {
        await fetch(request);
        await saveElsewhere(x, id, { description: noted });
        throw new TypeError('fetch failed: the connection was reset after the request was sent');
      });
      await x.engine.calls.attachFiles(id, [{ path: await x.file('proof.txt', 'evidence\n') }]);
      await x.engine.session.drain();
      expect(transport.seen).toHaveLength(2);
      expect((await x.engine.calls.getReport(id))?.draft?.content.description).toBe(noted);

      // An editor that has not shown the merge yet: it names the content it built on.
      const edited = { ...CONTENT, title: 'Open redirect after sign-in (edited)' };
      await x.engine.calls.saveDraft(id, edited, CONTENT);
      await x.engine.session.drain();
      const report = await server(x, id);
      expect(report.title).toBe('Open redirect after sign-in (edited)');
      expect(report.description).toBe(noted);
      expect(await parkedEntry(x, id)).toBeUndefined();
    });

    it('a website edit equal to an old unanswered save of ours is the website’s, not ours', async () => {
      const transport = scriptedFetch(isDraftSave);
      const x = await open(transport);
      const id = await draft(x);
      const withLine = `${COMPLETE_DESCRIPTION}\nSeen from the website.\n`;
      transport.script(
        // Our save of the new title fails before the server does anything; meanwhile the
        // website adds a line.
        after(() => saveElsewhere(x, id, { description: withLine }), failBefore),
        // The resend meets the website's line: a merge, and the merged draft goes out; before
        // it arrives the website takes its line out again and (by chance) sets our new title.
        forward,
        after(
          () =>
            saveElsewhere(x, id, {
              title: 'Open redirect to any host',
              description: COMPLETE_DESCRIPTION,
            }),
          forward,
        ),
      );
      await x.engine.calls.saveDraft(id, { ...CONTENT, title: 'Open redirect to any host' });
      await x.engine.session.drain();

      // The server's content now equals our first, never carried out save; it must not be taken
      // for it: the website removed its line, and that removal stands.
      const report = await server(x, id);
      expect(report.title).toBe('Open redirect to any host');
      expect(report.description).toBe(COMPLETE_DESCRIPTION);
      expect((await x.engine.calls.getReport(id))?.draft?.content.description).toBe(
        COMPLETE_DESCRIPTION,
      );
      expect(await parkedEntry(x, id)).toBeUndefined();
      // Acknowledged: no record of unanswered saves is left to match anything later.
      expect(x.engine.session.store.syncState.get(`outbox.sent.${id}`)).toBeNull();
    });

    it('our save whose answer was lost, then a website edit of another line: what we typed since merges, no conflict with our own words', async () => {
      const transport = scriptedFetch(isDraftSave);
      const x = await open(transport);
      const id = await draft(x);
      const first = `${COMPLETE_DESCRIPTION}\nMarker: 1\n`;
      const second = `${COMPLETE_DESCRIPTION}\nMarker: 2\n`;
      const noted = (text: string) =>
        text.replace(
          'The redirect target is rejected.',
          'The redirect target is rejected (website).',
        );
      transport.script(async (request) => {
        // The server takes our first save; the website then edits another line; the researcher
        // types again; and only then is the first save's answer lost.
        await fetch(request);
        await saveElsewhere(x, id, { description: noted(first) });
        await x.engine.calls.saveDraft(id, { ...CONTENT, description: second });
        throw new TypeError('fetch failed: the connection was reset after the request was sent');
      });
      await x.engine.calls.saveDraft(id, { ...CONTENT, description: first });
      await x.engine.session.drain();
      expect(await parkedEntry(x, id)).toBeUndefined();
      expect((await server(x, id)).description).toBe(noted(second));
      expect((await x.engine.calls.getReport(id))?.draft?.conflicts).toEqual([]);
    });

    it('a submit the website made first fulfils the app’s queued submit', async () => {
      const x = await open();
      const id = await draft(x);
      const current = await server(x, id);
      await x.sandbox.api('POST', `/api/reports/${id}/submit`, {
        token: x.key,
        body: { revision: current.revision },
      });
      await x.engine.calls.submit(id);
      await x.engine.session.drain();
      expect(await parkedEntry(x, id)).toBeUndefined();
      expect(outboxEntries(x)).toEqual([]);
      const detail = await x.engine.calls.getReport(id);
      expect(detail?.report?.status).toBe('triaging');
      expect(detail?.draft).toBeNull();
    });
  });

  describe('done entries are pruned', () => {
    it('leaves no done entry behind, and lost answers are still reconciled after pruning', async () => {
      const transport = scriptedFetch(isMessagePost);
      const x = await open(transport);
      const id = await submitted(x);
      const store = x.engine.session.store;
      await x.engine.calls.postMessage(id, { body: 'Same text.', filePaths: [] });
      await x.engine.session.drain();
      expect(outboxEntries(x)).toEqual([]);

      // The identical earlier message (its entry long gone) is never taken for a later one.
      transport.script(loseAnswer);
      await x.engine.calls.postMessage(id, { body: 'Same text.', filePaths: [] });
      await x.engine.session.drain();
      transport.script(failBefore);
      await x.engine.calls.postMessage(id, { body: 'Same text.', filePaths: [] });
      await x.engine.session.drain();
      expect((await researcherMessages(x, id)).map((m) => m.body)).toEqual([
        'Same text.',
        'Same text.',
        'Same text.',
      ]);
      expect(transport.seen).toHaveLength(4);
      expect(outboxEntries(x)).toEqual([]);

      // Done entries an older version kept are pruned when the worker starts.
      const kept = store.outbox.enqueue({ reportId: id, kind: 'submit', payload: {} });
      store.outbox.markDone(kept.id);
      expect(outboxEntries(x)).toHaveLength(1);
      const engine = await x.restart();
      expect(engine.session.store.outbox.list({ includeDone: true })).toEqual([]);
    });
  });
});
