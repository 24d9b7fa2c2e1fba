import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { SECURE_WEB_PREFERENCES } from '../main/web-preferences';
import type { DraftContent, EvidenceView } from '../../src/shared/bridge/views';
import type { Report } from '../support/sandbox-client';
import { COMPLETE_DESCRIPTION } from '../support/fixtures';
import { CHROMIUM_FLAGS, useAppPerTest } from '../renderer/support/app';
import { RENDERER_JS_FLAGS } from '../../src/main/renderer-heap';
import { goTo, until } from '../renderer/support/ui';
import type { AppHost } from './host';

/**
 * The app as it ships: `out/main/index.js` in its own process with only `electron` imitated, its
 * window a Chromium page running the built renderer and preload, the engine and the sandbox in
 * utility processes of their own. These tests look at what only the whole app can show.
 */
describe('the built app', () => {
  const apps = useAppPerTest('built-app');
  const open = (signedIn = true) => apps.open({ signedIn });

  const server = async (h: AppHost, reportId: string): Promise<Report> =>
    (await h.sandbox.api<Report>('GET', `/api/reports/${reportId}`, { token: h.key })).body;

  it('starts: a hardened window shows the built renderer; SQLite and the keychain binding live in the engine process, never in main', async () => {
    const { host, page } = await open(false);
    await page.getByRole('heading', { name: 'Welcome', exact: true }).waitFor();
    const main = host.start();
    const [win] = [...main.windows.values()];
    const { preload, ...prefs } = win?.options.webPreferences ?? {};
    expect(prefs).toEqual(SECURE_WEB_PREFERENCES);
    expect(preload).toMatch(/out\/preload\/index\.cjs$/);
    expect(win?.url).toBe(host.rendererUrl);
    // The window's V8 flags main asks Chromium for are the ones every browser test runs with.
    expect(main.traces.filter((t) => t.call === 'appendSwitch')).toEqual([
      { t: 'app', call: 'appendSwitch', name: 'js-flags', value: RENDERER_JS_FLAGS },
    ]);
    expect(CHROMIUM_FLAGS).toContain(`--js-flags=${RENDERER_JS_FLAGS}`);
    const engines = main.running('engine.js');
    expect(engines).toHaveLength(1);
    const mapped = async (pid: number): Promise<string> => readFile(`/proc/${pid}/maps`, 'utf8');
    const mainMaps = await mapped(main.child.pid ?? 0);
    expect(mainMaps).not.toMatch(/better_sqlite3\.node/);
    expect(mainMaps).not.toMatch(/keyring\.[\w-]+\.node/);
    await host.engine.getStatus(); // the engine has opened its keychain and mirror by now
    await host.signIn();
    await until('SQLite in the engine process', async () =>
      /better_sqlite3\.node/.test(await mapped(engines[0]?.pid ?? 0)),
    );
    expect(await mapped(engines[0]?.pid ?? 0)).toMatch(/keyring\.[\w-]+\.node/);
    expect(await mapped(main.child.pid ?? 0)).not.toMatch(
      /better_sqlite3\.node|keyring\.[\w-]+\.node/,
    );
  });

  it('an edit typed before the editor saw a merge keeps both changes, through the real bridge', async () => {
    const { host } = await open();
    const base: DraftContent = {
      title: 'SSRF in the PDF renderer',
      asset: 'https://docs.example.com/render',
      description: COMPLETE_DESCRIPTION,
      cvss_vector: '',
    };
    const { reportId } = await host.engine.createDraft(host.programs.open.id);
    await host.engine.saveDraft(reportId, base);
    await host.settled();
    const current = await server(host, reportId);
    const theirs = 'SSRF in the PDF renderer (triaged title)';
    const res = await host.sandbox.api('PUT', `/api/reports/${reportId}`, {
      token: host.key,
      body: { program_id: current.program_id, ...base, title: theirs, revision: current.revision },
    });
    expect(res.status).toBe(200);
    await host.engine.syncNow();
    expect((await host.engine.getReport(reportId))?.draft?.content.title).toBe(theirs);
    // The editor still shows `base` and the researcher changed the asset.
    const view = await host.engine.saveDraft(
      reportId,
      { ...base, asset: 'https://docs.example.com/render/v2' },
      base,
    );
    expect(view.content).toMatchObject({
      title: theirs,
      asset: 'https://docs.example.com/render/v2',
    });
    await host.settled();
    const report = await server(host, reportId);
    expect(report.title).toBe(theirs);
    expect(report.asset).toBe('https://docs.example.com/render/v2');
  });

  it('the page cannot name a file: only files dropped or picked in main’s dialog are read', async () => {
    const { host } = await open();
    const { reportId } = await host.engine.createDraft(host.programs.open.id);
    const secret = await host.file('never-given.txt', 'not for the program\n');
    // A path where a token belongs is refused by the argument check; so is a token main never
    // handed out (a well-formed UUID), before anything is read.
    await expect(host.engine.attachFiles(reportId, [{ file: secret }])).rejects.toMatchObject({
      name: 'BridgeInputError',
      field: 'file',
    });
    await expect(
      host.engine.attachFiles(reportId, [{ file: '3f1c2a9e-8d4b-4c1e-9f2a-7b6c5d4e3f21' }]),
    ).rejects.toMatchObject({ message: expect.stringMatching(/not given to the app/) });
    await expect(
      host.engine.postMessage(reportId, {
        body: 'see file',
        files: ['3f1c2a9e-8d4b-4c1e-9f2a-7b6c5d4e3f21'],
      }),
    ).rejects.toMatchObject({ field: 'file' });
    expect((await host.engine.getReport(reportId))?.evidence).toEqual([]);

    // What the user picks in main's own open dialog is attached.
    const poc = await host.file('poc.txt', 'GET /render?url=http://169.254.169.254/\n');
    host.pickInDialog([poc]);
    const picked = await host.engine.pickFiles();
    expect(picked).toEqual([{ token: expect.any(String), name: 'poc.txt', size: 40 }]);
    const [first] = picked;
    const added: EvidenceView[] = await host.engine.attachFiles(reportId, [
      { file: first?.token ?? '' },
    ]);
    expect(added.map((e) => e.name)).toEqual(['poc.txt']);
    expect(host.start().dialogs.map((d) => d.kind)).toEqual(['open']);
  });

  it('a dropped file reaches the engine through the preload as a token; the page never sees its path', async () => {
    const { host, page } = await open();
    const { reportId } = await host.engine.createDraft(host.programs.open.id);
    await goTo(page, `#/reports/${reportId}`);
    const editor = page.getByRole('textbox', { name: 'Description', exact: true });
    await editor.waitFor();
    const bytes = 'HTTP/1.1 302 Found\nLocation: http://evil.example/\n';
    const path = await host.file('redirect.txt', bytes);
    await host.dropFiles(editor, [{ path, bytes, type: 'text/plain' }]);
    await until('the upload', async () =>
      Object.values((await server(host, reportId)).attachments).some(
        (a) => a.name === 'redirect.txt' && a.state === 'ready',
      ),
    );
    const attach = host.calls.filter((c) => c.name === 'attachFiles');
    expect(attach.length).toBeGreaterThan(0);
    expect(JSON.stringify(attach)).not.toContain(path);
    expect(JSON.stringify(host.calls)).not.toContain(host.dataDir);
  });

  it('the engine process is killed mid-upload: main restarts it, the UI says so, the upload finishes once', async () => {
    const { host, page } = await open();
    const { reportId } = await host.engine.createDraft(host.programs.open.id);
    await host.settled();
    const big = await host.file('capture.har', 'x'.repeat(4 * 1024 * 1024));
    host.pickInDialog([big]);
    const [picked] = await host.engine.pickFiles();
    // Slow answers keep the upload in flight long enough to kill the engine during it.
    await host.sandbox.faults({ rate: 1, latency_ms: 1_500, seed: 3 });
    await host.engine.attachFiles(reportId, [{ file: picked?.token ?? '' }]);
    await until('the upload in flight', async () =>
      ((await host.engine.getReport(reportId))?.evidence ?? []).some(
        (e) => e.state === 'uploading',
      ),
    );
    // The restart takes a moment only: the page records whether it ever said so, rather than
    // the test polling for a text that a slow machine may show between two looks.
    await page.evaluate((text) => {
      interface Page {
        document: { body: { textContent: string | null } };
        MutationObserver: new (cb: () => void) => {
          observe(target: unknown, options: Record<string, boolean>): void;
        };
        __said?: boolean;
      }
      const w = globalThis as unknown as Page;
      w.__said = false;
      new w.MutationObserver(() => {
        if (w.document.body.textContent?.includes(text)) w.__said = true;
      }).observe(w.document.body, { subtree: true, childList: true, characterData: true });
    }, 'Reconnecting to the engine…');
    const killed = host.killEngine();
    await until('the page said it is reconnecting to the engine', () =>
      page.evaluate(() => (globalThis as unknown as { __said?: boolean }).__said === true),
    );
    // A call made while the engine restarts waits for the new one.
    const status = await host.engine.getStatus();
    expect(status).toHaveProperty('unsent');
    const [engine] = host.start().running('engine.js');
    expect(engine?.pid).not.toBe(killed);
    await host.sandbox.clearFaults();
    await host.settled(60_000);
    const files = Object.values((await server(host, reportId)).attachments);
    expect(files.map((f) => [f.name, f.state])).toEqual([['capture.har', 'ready']]);
    await page
      .getByRole('status', { name: 'Connection', exact: true })
      .getByText('Reconnecting to the engine…')
      .waitFor({ state: 'detached' });
  });
});
