import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { MessageList, Report } from '../../src/shared/api';
import { openReport, submittedOnServer } from './support/reports';
import { useAppPerTest } from './support/app';
import { connection, expectText, isEnabled, reasonFor, until } from './support/ui';

/**
 * The reply box: every file is checked before anything is sent, a refused reply leaves
 * nothing on the server, and the page says so. Through the UI only, against the built app.
 */
describe('renderer: reply box', () => {
  const apps = useAppPerTest('reply');

  it('one file that cannot be sent holds back the reply, and a refused reply uploads nothing', async () => {
    const { page, host: h } = await apps.open();
    const id = await submittedOnServer(h, 'Report with a reply');
    await openReport(page, id, 'Report with a reply');
    const server = async (): Promise<Report> =>
      (await h.sandbox.api<Report>('GET', `/api/reports/${id}`, { token: h.key })).body;
    const messages = async () =>
      (
        await h.sandbox.api<MessageList>('GET', `/api/reports/${id}/messages`, { token: h.key })
      ).body.messages.filter((m) => m.author === 'researcher');

    const poc = await h.file('poc.txt', 'GET /login?next=//evil.example\n');
    const empty = await h.file('empty.txt', '');
    await page.getByRole('textbox', { name: 'Reply', exact: true }).fill('Here is the proof.');
    h.pickInDialog([poc, empty]);
    await page.getByRole('button', { name: 'Attach files to reply', exact: true }).click();
    const files = page.getByRole('list', { name: 'Reply files', exact: true });
    await expectText(files, /empty\.txt \(is empty\)/);
    const send = page.getByRole('button', { name: 'Send reply', exact: true });
    expect(await send.isEnabled()).toBe(false);
    await expectText(await reasonFor(page, send), 'Remove empty.txt: it is empty.');

    await files.getByRole('button', { name: 'Remove empty.txt', exact: true }).click();
    await until('"Send reply" enabled', () => isEnabled(send));
    // The file is emptied after it was picked: the app checks it again and refuses the reply.
    await writeFile(poc, '');
    await send.click();
    await expectText(
      page.getByRole('main'),
      /Not sent: nothing of this reply was uploaded or queued/,
    );
    expect(await page.getByRole('textbox', { name: 'Reply', exact: true }).inputValue()).toBe(
      'Here is the proof.',
    );
    expect((await h.engine.getReport(id))?.outbox).toEqual([]);
    expect((await server()).attachments).toEqual({});

    // Fixed on disk, the same reply goes through with exactly its one file.
    await writeFile(poc, 'GET /login?next=//evil.example\n');
    await send.click();
    await until('the reply on the server', async () => (await messages()).length > 0, 15_000);
    const [sent] = await messages();
    expect(sent?.attachments.map((a) => a.name)).toEqual(['poc.txt']);
    expect(Object.values((await server()).attachments).map((a) => a.message_id)).toEqual([
      expect.any(String),
    ]);
  });

  it('previews the reply as the thread will show it: the same sanitized Markdown', async () => {
    const { page, host: h, app } = await apps.open();
    const id = await submittedOnServer(h, 'Report with a previewed reply');
    await openReport(page, id, 'Report with a previewed reply');
    const body = [
      'Reproduced on **Chrome 140** with `curl -s https://a.example/`.',
      '',
      '- payload <img src=x onerror=window.__pwned=1>',
      '- [details](javascript:window.__pwned=2)',
    ].join('\n');
    await page.getByRole('textbox', { name: 'Reply', exact: true }).fill(body);
    const toggle = page.getByRole('button', { name: 'Preview reply', exact: true });
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    const preview = page.getByRole('region', { name: 'Reply preview', exact: true });
    await preview.locator('strong', { hasText: 'Chrome 140' }).waitFor();
    expect(await preview.locator('code').innerText()).toBe('curl -s https://a.example/');
    expect(await preview.getByRole('listitem').count()).toBe(2);
    // Hostile parts stay text: no image, no javascript: link, nothing run.
    await expectText(preview, /payload <img src=x onerror=window.__pwned=1>/);
    expect(await preview.locator('img').count()).toBe(0);
    expect(await preview.locator('a[href^="javascript"]').count()).toBe(0);
    // Live: the preview follows the text.
    await page.getByRole('textbox', { name: 'Reply', exact: true }).fill('## Update\n\nFixed?');
    await preview.getByRole('heading', { name: 'Update', exact: true }).waitFor();
    const previewed = await preview.innerText();

    await page.getByRole('button', { name: 'Send reply', exact: true }).click();
    const sent = page.getByRole('article').filter({ hasText: 'Fixed?' });
    await sent.waitFor({ timeout: 15_000 });
    expect((await sent.locator('.markdown').innerText()).trim()).toBe(previewed.trim());
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(app.guard.pageErrors).toEqual([]);
  });

  // Walk 19: "0 / 12000" stood against "Preview reply", and one wait was worded three ways.
  it("says where a sent reply is, online and offline, in the draft save line's words", async () => {
    const { page, host: h } = await apps.open();
    const id = await submittedOnServer(h, 'Open redirect after login on *.example.com');
    await openReport(page, id, 'Open redirect after login on *.example.com');
    const box = page.getByRole('textbox', { name: 'Reply', exact: true });
    const send = page.getByRole('button', { name: 'Send reply', exact: true });
    const counter = page.locator('#reply-count');
    const preview = page.getByRole('button', { name: 'Preview reply', exact: true });
    const gap =
      ((await preview.boundingBox())?.x ?? 0) -
      (((await counter.boundingBox())?.x ?? 0) + ((await counter.boundingBox())?.width ?? 0));
    expect(gap).toBeGreaterThanOrEqual(6);

    // Every frame from the click on, for a second: was the amber reason drawn? (Walk 21 saw it for
    // a frame or two, before the line that says where the reply is replaced it.)
    const amberAfterSend = async (): Promise<number> => {
      await page.evaluate(() => {
        const g = globalThis as unknown as {
          __amber: number;
          requestAnimationFrame(f: () => void): void;
          document: { querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> };
        };
        g.__amber = 0;
        const end = performance.now() + 1_000;
        const frame = (): void => {
          const shown = Array.from(g.document.querySelectorAll('.disabled-reason')).some(
            (e) => e.textContent === 'Write a reply or attach a file.',
          );
          if (shown) g.__amber++;
          if (performance.now() < end) g.requestAnimationFrame(frame);
        };
        g.requestAnimationFrame(frame);
      });
      await send.click();
      await page.waitForTimeout(1_100);
      return page.evaluate(() => (globalThis as unknown as { __amber: number }).__amber);
    };

    // A service 3 s late: the reply waits long enough for its line to be worth reading.
    await h.sandbox.faults({ rate: 1, latency_ms: 3_000, seed: 21 });
    await box.fill('Reproduced with `GET /login?next=//evil.example` on Chrome 140.');
    expect(await amberAfterSend()).toBe(0);
    await expectText(
      page.getByRole('main'),
      /Reply queued: it shows in the thread once the service has it\./,
    );
    await h.sandbox.faults({ rate: 1, reset_connection: true, seed: 19 });
    try {
      await page.getByRole('button', { name: 'Sync now', exact: true }).click();
      await expectText(connection(page), /Offline/, 30_000);
      await box.fill('Also on Firefox 140, C:\\Users\\alice\\poc.html attached earlier.');
      expect(await amberAfterSend()).toBe(0);
      const kept = /Reply kept on this computer; sent when the connection returns\./;
      await expectText(page.getByRole('main'), kept);
      // The box the send emptied: why Send is disabled is read with it, not shown above the line
      // that says where the reply is (walk 20 read it as a prompt to write the reply again).
      const reason = page.getByText('Write a reply or attach a file.', { exact: true });
      // Read by a screen reader, drawn in no space (a visually hidden text is 1 px square).
      const shownWidth = async (): Promise<number> => (await reason.boundingBox())?.width ?? 0;
      expect(await shownWidth()).toBeLessThanOrEqual(1);
      const describedBy = (await send.getAttribute('aria-describedby')) ?? '';
      expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(
        'Write a reply or attach a file.',
      );
      // Typing the next reply: the kept one is still kept, and its line says so (walk 21: it went).
      await box.fill('Also');
      expect(await page.getByText(kept).count()).toBe(1);
      await box.fill('');
      expect(await shownWidth()).toBeGreaterThan(100);
    } finally {
      await h.sandbox.clearFaults();
    }
  });

  // Walk 21: sent by Ctrl+Enter from a box at the window's foot, the line stood below the window.
  it('a reply sent by keyboard from the window’s foot: the line that says where it is comes into view', async () => {
    const { page, host: h } = await apps.open();
    const id = await submittedOnServer(h, 'Open redirect after login on *.example.com');
    await openReport(page, id, 'Open redirect after login on *.example.com');
    await page.setViewportSize({ width: 1280, height: 600 });
    const box = page.getByRole('textbox', { name: 'Reply', exact: true });
    await box.fill(
      'Reproduced with `GET /login?next=//evil.example`; Authorization: Bearer [REDACTED].',
    );
    // The box's foot at the window's: the buttons and the line's place are below it.
    await box.evaluate((e) =>
      (e as unknown as { scrollIntoView(o: object): void }).scrollIntoView({ block: 'end' }),
    );
    const row = page.getByRole('button', { name: 'Send reply', exact: true });
    expect(((await row.boundingBox())?.y ?? 0) + 10).toBeGreaterThan(600);
    await h.sandbox.faults({ rate: 1, latency_ms: 3_000, seed: 22 });
    try {
      await box.focus();
      await page.keyboard.press('ControlOrMeta+Enter');
      const line = page.getByText(
        /^Reply queued: it shows in the thread once the service has it\.$/,
      );
      await line.waitFor();
      await until('the line in view', async () => {
        const at = await line.boundingBox();
        return !!at && at.y >= 0 && at.y + at.height <= 600;
      });
    } finally {
      await h.sandbox.clearFaults();
    }
  });
});
