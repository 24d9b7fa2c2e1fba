import { closeSync, openSync, readdirSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait';
import type { MessageList } from '../support/sandbox-client';
import { COMPLETE_DESCRIPTION, harnessPerTest, type Harness } from './harness';

const CONTENT = {
  title: 'IDOR on /api/v2/invoices/{id} leaks other tenants’ invoices',
  asset: 'https://billing.acme.example/api/v2/invoices',
  description: COMPLETE_DESCRIPTION,
  cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N',
};

/** A reply as researchers write them: a request in a fence, with a blank line before its body. */
const REPLY = [
  'Here is the second request you asked for (session cookie removed):',
  '',
  '```http',
  'POST /api/v2/invoices/1042/share HTTP/1.1',
  'Host: billing.acme.example',
  'Content-Type: application/json',
  '',
  '{"tenant": "*.acme.example", "path": "C:\\\\Users\\\\me\\\\poc.txt"}',
  '```',
].join('\n');

function mirrorFile(h: Harness): string {
  const [dir] = readdirSync(join(h.dataDir, 'accounts'));
  return join(h.dataDir, 'accounts', dir as string, 'mirror.sqlite');
}

/** Every table and index of the mirror with the pages it holds. */
function pagesByName(file: string): Map<string, number[]> {
  const reader = new Database(file, { readonly: true });
  try {
    const rows = reader
      .prepare<[], { name: string; pageno: number }>(
        'SELECT name, pageno FROM dbstat ORDER BY name, pageno',
      )
      .all();
    const byName = new Map<string, number[]>();
    for (const { name, pageno } of rows) byName.set(name, [...(byName.get(name) ?? []), pageno]);
    return byName;
  } finally {
    reader.close();
  }
}

function garble(file: string, page: number): void {
  const reader = new Database(file, { readonly: true });
  const pageSize = Number(reader.pragma('page_size', { simple: true }));
  reader.close();
  const garbage = Buffer.alloc(pageSize);
  for (let i = 0; i < pageSize; i++) garbage[i] = (i * 131 + 7) & 0xff;
  const fd = openSync(file, 'r+');
  writeSync(fd, garbage, 0, pageSize, (page - 1) * pageSize);
  closeSync(fd);
}

/**
 * A mirror damaged wherever the damage falls: the queued reply is sent once, and never parked as
 * if the server had refused it. (A handler that met a damaged page parked the reply with
 * SQLITE_CORRUPT, and the unsent-work journal kept it parked through the rebuild.)
 */
describe('engine: a damaged page under queued work', () => {
  const open = harnessPerTest();

  /** A submitted report, mirrored with its thread, and the engine closed. */
  async function submitted(h: Harness): Promise<string> {
    const draft = await h.engine.calls.createDraft(h.programs.open.id);
    await h.engine.calls.saveDraft(draft.reportId, CONTENT);
    await h.engine.calls.submit(draft.reportId);
    await h.engine.session.drain();
    await h.engine.session.syncNow(['reports']);
    await h.engine.calls.getReport(draft.reportId);
    return draft.reportId;
  }

  /** The researcher's messages with this body on the server (polled gently: rate limits). */
  async function sentCopies(h: Harness, reportId: string, body: string): Promise<number> {
    const res = await h.sandbox.api<MessageList>('GET', `/api/reports/${reportId}/messages`, {
      token: h.key,
    });
    if (res.status !== 200) return -1;
    return res.body.messages.filter((m) => m.author === 'researcher' && m.body === body).length;
  }

  // The tables and indexes a reply goes through, and the reports' own.
  const names = ['outbox', 'messages', 'threads', 'reports', 'report_documents', 'reports_list'];
  for (const name of names) {
    it(`a page of ${name} garbled: the reply is sent once, nothing parked`, async () => {
      const h = await open();
      const replyTo = await submitted(h);
      await h.sandbox.faults({ rate: 1, reset_connection: true });
      const body = `${REPLY}\n\n(case: ${name})`;
      await h.engine.calls.postMessage(replyTo, { body, filePaths: [] });
      await h.engine.close();
      await h.sandbox.clearFaults();

      const file = mirrorFile(h);
      const pages = pagesByName(file).get(name);
      if (!pages?.length) throw new Error(`the mirror has no ${name} pages`);
      garble(file, pages[Math.floor(pages.length / 2)] as number);

      await h.engine.open();
      // The session may be replaced (a checked mirror) while this waits: read through the engine.
      const seen = await waitFor(
        'the reply to go out',
        async () => {
          const current = await h.engine.calls.getStatus().catch(() => null);
          return {
            sent: await sentCopies(h, replyTo, body),
            unsent: current?.unsent ?? -1,
            held: current?.held ?? -1,
          };
        },
        (s) => s.sent >= 1 && s.unsent === 0,
        { timeoutMs: 30_000, everyMs: 500 },
      );
      expect(seen).toEqual({ sent: 1, unsent: 0, held: 0 });
      const { storage } = await h.engine.calls.getStatus();
      console.log(
        `damaged ${name} page: ${storage.recovered ? 'found, mirror rebuilt' : 'not read'}`,
      );
      // The reply's path and the reports' reads meet these: the mirror is set aside and rebuilt.
      if (['outbox', 'messages', 'reports', 'report_documents'].includes(name))
        expect(storage.recovered).not.toBeNull();
    }, 60_000);
  }
});
