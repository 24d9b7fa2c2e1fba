import { readdir, readFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReadOnlyError } from '../../src/engine/commands';
import type { ReportListItemView } from '../../src/shared/bridge/views';
import { readKey, type Report } from '../support/sandbox-client';
import { EngineChild } from './child';
import { bareHarnessPerTest, COMPLETE_DESCRIPTION } from './harness';
import { savedDraft } from '../support/drafts';

/** Sign-in and the key: read-only keys, the key never written or printed, a missing keychain. */
describe('engine account and key', () => {
  const open = bareHarnessPerTest((h) => h.sandbox.clearFaults());

  it('a read key signs in with scope read: writes fail with a clear error, the sync still works', async () => {
    const h = await open();
    // Another client with the write key has a report the read-only client should see.
    const id = '6b0f7c1e-2f55-4c3a-9d65-5d1c3f8f2a10';
    const created = await h.sandbox.api<Report>('PUT', `/api/reports/${id}`, {
      token: h.key,
      body: {
        program_id: h.programs.open.id,
        title: 'Made on the website',
        asset: 'https://example.com',
        description: COMPLETE_DESCRIPTION,
        revision: 0,
      },
    });
    expect(created.status).toBe(200);

    const account = await h.engine.connect({
      serverUrl: h.sandbox.url,
      apiKey: readKey(h.account),
    });
    expect(account.scope).toBe('read');
    expect((await h.engine.getAccount())?.scope).toBe('read');
    const writes: [string, () => Promise<unknown>][] = [
      ['createDraft', () => h.engine.calls.createDraft(h.programs.open.id)],
      [
        'saveDraft',
        () =>
          h.engine.calls.saveDraft(id, {
            title: 'x',
            asset: 'y',
            description: 'z',
            cvss_vector: '',
          }),
      ],
      [
        'attachFiles',
        async () => h.engine.calls.attachFiles(id, [{ path: await h.file('a.txt', 'a') }]),
      ],
      ['removeFile', () => h.engine.calls.removeFile(id, '9a3c1d2e-0f4b-4c5d-8e6f-7a8b9c0d1e2f')],
      ['submit', () => h.engine.calls.submit(id)],
      ['withdraw', () => h.engine.calls.withdraw(id)],
      ['postMessage', () => h.engine.calls.postMessage(id, { body: 'hi', filePaths: [] })],
    ];
    for (const [name, write] of writes) {
      const error = await write().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, name).toBeInstanceOf(ReadOnlyError);
      expect((error as Error).message, name).toMatch(/can only read.*scope "write"/);
    }
    expect((await h.engine.getStatus()).unsent).toBe(0);

    await h.engine.calls.syncNow();
    const items: ReportListItemView[] = (await h.engine.calls.listReports({})).items;
    expect(items.map((r) => r.id)).toEqual([id]);
    expect((await h.engine.calls.getReport(id))?.report?.title).toBe('Made on the website');
    expect((await h.engine.calls.listPrograms({})).total).toBeGreaterThan(0);
    const stats = await h.sandbox.control<{ by_route: Record<string, number> }>(
      'GET',
      '/__sandbox/stats',
    );
    // Only the scope probe (a withdraw of an id that cannot exist) ever tried a write.
    const writesSent = Object.entries(stats.by_route)
      .filter(([route]) => !route.startsWith('GET '))
      .map(([route, n]) => [route, n]);
    expect(writesSent).toEqual([
      ['PUT /api/reports/{report_id}', 1],
      ['POST /api/reports/{report_id}/withdraw', 1],
    ]);
  });

  it('the key is never in SQLite, files, events, errors or console output', async () => {
    const captured: string[] = [];
    const originals = {
      log: console.log,
      info: console.info,
      warn: console.warn,
      error: console.error,
      debug: console.debug,
      out: process.stdout.write.bind(process.stdout),
      err: process.stderr.write.bind(process.stderr),
    };
    const grab =
      (original: (...args: unknown[]) => void) =>
      (...args: unknown[]): void => {
        captured.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
        original(...args);
      };
    console.log = grab(originals.log);
    console.info = grab(originals.info);
    console.warn = grab(originals.warn);
    console.error = grab(originals.error);
    console.debug = grab(originals.debug);
    process.stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
      captured.push(String(chunk));
      return (originals.out as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stdout.write;
    process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
      captured.push(String(chunk));
      return (originals.err as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stderr.write;
    const seen: unknown[] = [];
    try {
      const x = await open();
      const wrongKey = `sbx_${'A'.repeat(43)}`;
      seen.push(
        await x.engine.connect({ serverUrl: x.sandbox.url, apiKey: wrongKey }).catch((e) => e),
      );
      await x.engine.connect({ serverUrl: x.sandbox.url, apiKey: x.key });
      await x.sandbox.faults({ rate: 0.5, statuses: [500, 503], reset_connection: true, seed: 4 });
      const draft = await savedDraft(
        { engine: x.engine.calls, programs: x.programs },
        {
          title: 'Token echoed in an error page',
          asset: 'https://example.com',
        },
      );
      await x.engine.calls.attachFiles(draft.reportId, [
        { path: await x.file('e.txt', 'evidence') },
      ]);
      await x.engine.calls.submit(draft.reportId);
      await x.engine.session.drain(30_000);
      await x.engine.calls.syncNow();
      await x.sandbox.clearFaults();
      // The key stops working (a password change): every call now fails with 401.
      await x.sandbox.patchAccount(x.account.uid, { password_changed: true });
      await x.engine.calls.syncNow();
      seen.push(await x.engine.calls.refreshPayments().catch((e) => e));
      seen.push(
        await x.engine.calls.downloadFile(draft.reportId, 'nope', '/tmp/x').catch((e) => e),
      );
      seen.push(await x.engine.getStatus(), await x.engine.calls.getReport(draft.reportId));
      seen.push(x.events);
      expect(x.events['sync-error']?.some((e) => e.code === 'unauthenticated')).toBe(true);
      await x.engine.close();

      const files: string[] = [];
      const walk = async (dir: string): Promise<void> => {
        for (const entry of await readdir(dir, { withFileTypes: true })) {
          const path = join(dir, entry.name);
          if (entry.isDirectory()) await walk(path);
          else files.push(path);
        }
      };
      await walk(x.dataDir);
      expect(files.some((f) => f.endsWith('mirror.sqlite'))).toBe(true);
      for (const file of files) {
        const bytes = await readFile(file);
        expect(bytes.includes(Buffer.from(x.key)), file).toBe(false);
        expect(bytes.includes(Buffer.from(wrongKey)), file).toBe(false);
      }
      const texts = seen.map((value) =>
        value instanceof Error
          ? `${value.name} ${value.message} ${value.stack ?? ''} ${JSON.stringify(value)}`
          : JSON.stringify(value),
      );
      expect(texts[0]).toMatch(/^SignInError The API key is not accepted/);
      expect(seen[0]).toMatchObject({ code: 'sign_in_failed', field: 'apiKey' });
      for (const text of [...texts, ...captured]) {
        expect(text.includes(x.key)).toBe(false);
        expect(text.includes(wrongKey)).toBe(false);
      }
    } finally {
      Object.assign(console, {
        log: originals.log,
        info: originals.info,
        warn: originals.warn,
        error: originals.error,
        debug: originals.debug,
      });
      process.stdout.write = originals.out as typeof process.stdout.write;
      process.stderr.write = originals.err as typeof process.stderr.write;
    }
  });

  it('any key of the documented shape is sent to the server to judge; only a malformed one is refused first', async () => {
    const x = await open();
    const rest = 'k'.repeat(43);
    const requests = async () => {
      const stats = await x.sandbox.control<{ requests: number }>('GET', '/__sandbox/stats');
      await x.sandbox.control('DELETE', '/__sandbox/stats');
      return stats.requests;
    };
    await requests();
    // Part 5: `<KEY_PREFIX>_` plus 43 characters. The prefix is not published: a long one, one
    // starting with a digit and one holding `_` itself are all keys the document allows.
    for (const key of [
      `sk_live_${rest}`,
      `1abc_${rest}`,
      `averylongprefixofthirtytwochars_${rest}`,
    ]) {
      const error = (await x.engine
        .connect({ serverUrl: x.sandbox.url, apiKey: key })
        .catch((e: unknown) => e)) as { field?: string; message: string };
      expect(error.field).toBe('apiKey');
      expect(error.message).not.toMatch(/does not look like an API key/);
      expect(await requests()).toBeGreaterThan(0);
    }
    // One character short, a space inside (it could not travel in a header), no prefix at all.
    for (const key of [`sbx_${rest.slice(1)}`, `sbx_${rest.slice(2)} x`, `_${rest}`]) {
      const error = (await x.engine
        .connect({ serverUrl: x.sandbox.url, apiKey: key })
        .catch((e: unknown) => e)) as { field?: string; message: string };
      expect(error.field).toBe('apiKey');
      expect(error.message).toMatch(/does not look like an API key/);
      expect(await requests()).toBe(0);
    }
  });

  it('without a keychain (no D-Bus session) connect fails at once with the clear error', async () => {
    const h = await open();
    const dataDir = await mkdtemp(join(tmpdir(), 'engine-nokeychain-'));
    const env = { ...process.env };
    delete env.DBUS_SESSION_BUS_ADDRESS;
    const { child } = await EngineChild.start({ dataDir }, env);
    try {
      const started = Date.now();
      const error = await child.call('connect', { serverUrl: h.sandbox.url, apiKey: h.key }).then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(error?.name).toBe('KeychainUnavailableError');
      expect(error?.message).toMatch(/No OS keychain is available.*Secret Service/);
      expect(error?.message.includes(h.key)).toBe(false);
      expect(Date.now() - started).toBeLessThan(10_000);
      // Before any request: the server never saw the key.
      const stats = await h.sandbox.control<{ requests: number }>('GET', '/__sandbox/stats');
      expect(stats.requests).toBe(0);
      expect(child.stdout.includes(h.key) || child.stderr.includes(h.key)).toBe(false);
    } finally {
      await child.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
