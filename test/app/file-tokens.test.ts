import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DROP_CHANNEL, type PickedFile } from '../../src/shared/bridge/contract';
import type { Report } from '../support/sandbox-client';
import { useAppPerTest } from '../renderer/support/app';
import { goTo, until } from '../renderer/support/ui';
import type { AppHost } from './host';
import type { StandInPageGlobals } from './page-preload';

/**
 * File tokens come only from the user's hand: the preload mints one only for a file of
 * a drop or paste the browser raised, and main takes only a regular file, never a link, a folder
 * or a device. Drills from the page of the built app, with the built preload and main.
 */
describe('file tokens only from the user’s hand', () => {
  const apps = useAppPerTest('file-tokens');

  const server = async (h: AppHost, reportId: string): Promise<Report> =>
    (await h.sandbox.api<Report>('GET', `/api/reports/${reportId}`, { token: h.key })).body;

  async function draftOpen(h: AppHost, page: Page): Promise<string> {
    const { reportId } = await h.engine.createDraft(h.programs.open.id);
    await goTo(page, `#/reports/${reportId}`);
    await page.getByRole('textbox', { name: 'Description', exact: true }).waitFor();
    return reportId;
  }

  /** A link named like a screenshot, to a file the user never meant to hand over. */
  async function disguisedLink(h: AppHost): Promise<string> {
    const dir = join(h.dataDir, 'files');
    await mkdir(dir, { recursive: true });
    const link = join(dir, 'screenshot.png');
    await symlink('/etc/passwd', link);
    return link;
  }

  it('a drop the page makes up gets no token, even for a File the page could give a path', async () => {
    const { host, page } = await apps.open();
    await draftOpen(host, page);
    const secret = await host.file('id_ed25519', 'PRIVATE KEY\n');
    const asked = await page.evaluate((path) => {
      const g = globalThis as unknown as StandInPageGlobals & {
        File: new (parts: string[], name: string, options: { type: string }) => object;
        DataTransfer: new () => { items: { add(file: object): unknown } };
        DragEvent: new (type: string, init: object) => { isTrusted: boolean };
        document: { querySelector(s: string): { dispatchEvent(e: object): boolean } | null };
        bountyDeskFiles: { tokenForFile(file: object): Promise<unknown> };
      };
      // The drill plays a page that could forge what no page can: a File with a path on disk.
      const file = new g.File(['x'], 'screenshot.png', { type: 'image/png' });
      g.__standInFiles.set(file, path);
      const transfer = new g.DataTransfer();
      transfer.items.add(file);
      const drop = new g.DragEvent('drop', {
        dataTransfer: transfer,
        bubbles: true,
        cancelable: true,
      });
      g.document.querySelector('[aria-label="Description"]')?.dispatchEvent(drop);
      return g.bountyDeskFiles.tokenForFile(file);
    }, secret);
    expect(asked).toBeNull();
    // Neither the page's own call nor the editor's drop handler reached main.
    await page.waitForTimeout(300);
    expect(host.calls.filter((c) => c.name === 'tokenForFile')).toEqual([]);
    expect(host.calls.filter((c) => c.name === 'attachFiles')).toEqual([]);
  });

  it('main refuses a link, a folder and a device however the path reaches it (a compromised renderer)', async () => {
    const { host, page } = await apps.open();
    const link = await disguisedLink(host);
    const folder = join(host.dataDir, 'files');
    const answers = await page.evaluate(
      async ({ channel, paths }) => {
        const g = globalThis as unknown as StandInPageGlobals;
        const out: unknown[] = [];
        for (const path of paths) out.push(await g.__electronInvoke(channel, [path]));
        return out;
      },
      { channel: DROP_CHANNEL, paths: [link, folder, '/dev/zero', 'relative/screenshot.png'] },
    );
    expect(answers).toEqual([
      {
        ok: false,
        error: expect.objectContaining({
          field: 'file',
          message: expect.stringMatching(/"screenshot\.png": is a link to another file/),
        }),
      },
      {
        ok: false,
        error: expect.objectContaining({
          message: expect.stringMatching(/"files": is not a file/),
        }),
      },
      {
        ok: false,
        error: expect.objectContaining({ message: expect.stringMatching(/"zero": is not a file/) }),
      },
      {
        ok: false,
        error: expect.objectContaining({ message: expect.stringMatching(/on this computer/) }),
      },
    ]);
    for (const answer of answers) expect(JSON.stringify(answer)).not.toMatch(/root:|\/etc\/passwd/);
  });

  it('the user drops a link named screenshot.png: no token, nothing read or sent', async () => {
    const { host, page } = await apps.open();
    const reportId = await draftOpen(host, page);
    const link = await disguisedLink(host);
    const editor = page.getByRole('textbox', { name: 'Description', exact: true });
    await host.dropFiles(editor, [{ path: link }]);
    await until('the preload asked main', async () =>
      host.calls.some((c) => c.name === 'tokenForFile'),
    );
    await page.getByText(/"screenshot\.png" cannot be read from disk/).waitFor();
    expect(host.calls.filter((c) => c.name === 'attachFiles')).toEqual([]);
    expect((await host.engine.getReport(reportId))?.evidence ?? []).toEqual([]);
    expect(Object.values((await server(host, reportId)).attachments)).toEqual([]);
  });

  it('a file the user drops gets one token, under its own name, shown in the evidence list', async () => {
    const { host, page } = await apps.open();
    const reportId = await draftOpen(host, page);
    const path = await host.file('poc-steps.txt', 'GET /admin HTTP/1.1\n');
    const editor = page.getByRole('textbox', { name: 'Description', exact: true });
    // The page keeps the File objects of the drop, to ask again with them afterwards.
    await page.evaluate(() => {
      const g = globalThis as unknown as {
        __kept: unknown[];
        addEventListener(
          type: string,
          listener: (e: { dataTransfer: { files: ArrayLike<unknown> } }) => void,
          capture: boolean,
        ): void;
      };
      g.__kept = [];
      g.addEventListener('drop', (e) => g.__kept.push(...Array.from(e.dataTransfer.files)), true);
    });
    await host.dropFiles(editor, [{ path }]);
    const evidence = page.getByRole('list', { name: 'Evidence', exact: true });
    await evidence.getByText('poc-steps.txt').first().waitFor();
    expect(host.calls.filter((c) => c.name === 'tokenForFile')).toHaveLength(1);
    expect(JSON.stringify(host.calls)).not.toContain(path);
    // The same File again, asked for by the page after its drop was used: no second token.
    const again = await page.evaluate(async () => {
      const g = globalThis as unknown as {
        __kept: unknown[];
        bountyDeskFiles: { tokenForFile(file: unknown): Promise<PickedFile | null> };
      };
      return g.__kept.length === 1 ? g.bountyDeskFiles.tokenForFile(g.__kept[0]) : 'not kept';
    });
    expect(again).toBeNull();
    expect(host.calls.filter((c) => c.name === 'tokenForFile')).toHaveLength(1);
    await until('the upload', async () =>
      Object.values((await server(host, reportId)).attachments).some(
        (a) => a.name === 'poc-steps.txt' && a.state === 'ready',
      ),
    );
  });
});
