import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes';
import type { MessageList, Report } from '../../src/shared/api';
import { cli, draftCreateArgs, json, startCli, type CliResult } from '../cli/run-cli';
import { COMPLETE_DESCRIPTION } from '../support/fixtures';
import { randomBytes } from '../support/random';
import { realFile } from '../support/real-corpus';
import { useAppPerFile } from './support/app';
import { expectText, goTo, until } from './support/ui';

/**
 * The built command and the built app at once, on one data folder: the command talks to the
 * app's engine over its socket and the window shows what it did; then the app is killed and the
 * command carries on with an engine of its own; then the command is killed mid-upload. Nothing
 * is lost, nothing is sent twice.
 */
describe('bountydesk beside the running app', () => {
  const opened = useAppPerFile('cli', {
    beforeWindow: async (h) => {
      await h.engine.syncNow();
      return '#/reports';
    },
  });
  const userData = () => join(opened.host.dataDir, 'userData');
  const work = () => opened.host.dataDir;
  const researcher = async (id: string) =>
    (
      await opened.host.sandbox.api<MessageList>('GET', `/api/reports/${id}/messages`, {
        token: opened.host.key,
      })
    ).body.messages.filter((m) => m.author === 'researcher');
  const server = async (id: string) =>
    (await opened.host.sandbox.api<Report>('GET', `/api/reports/${id}`, { token: opened.host.key }))
      .body;
  const reportFile = (title: string) =>
    `---\nprogram: ${opened.host.programs.open.id}\ntitle: ${title}\nasset: https://app.example.com/\ncvss_vector: ""\n---\n${COMPLETE_DESCRIPTION}`;
  let reportId = '';
  /** Syncs until the reply `body` reached the service, then holds that it is there once. */
  const sentOnce = async (what: string, body: string, timeout: number) => {
    await until(
      what,
      async () => {
        await cli(['sync'], userData());
        return (await researcher(reportId)).some((m) => m.body === body);
      },
      timeout,
    );
    await cli(['sync'], userData());
    const sent = (await researcher(reportId)).filter((m) => m.body === body);
    expect(sent).toHaveLength(1);
    return sent;
  };

  it("answers through the app's engine, and the window shows the draft, the submit and the reply", async () => {
    const status = await cli(['status'], userData());
    expect(status.code, status.stderr).toBe(EXIT.ok);
    expect(status.stdout).toContain("Engine:    the app's");
    // A field the app's engine refuses comes over its socket as data: the command prints the
    // engine's sentence with its field and code, as the window's bridge gets them.
    const unknown = '00000000-0000-4000-8000-000000000000';
    const refused = await cli(['reply', unknown, '--body', 'Hello'], userData());
    expect(refused.code, refused.stderr).toBe(EXIT.failed);
    expect(refused.stderr.trim()).toBe('unknown report (field: report_id, code: invalid_input)');
    console.log(
      `command start to first answer, app running: ${Math.round(status.firstMs ?? 0)} ms`,
    );

    writeFileSync(join(work(), 'photo.jpg'), realFile('images', 'exifr-issue-exifr-13.jpg'));
    writeFileSync(join(work(), 'session.har'), realFile('har', 'mitmproxy-chrome.har'));
    writeFileSync(join(work(), 'finding.md'), reportFile('Found from the terminal'));
    const made = await cli(
      [...draftCreateArgs('finding.md', ['photo.jpg', 'session.har'])],
      userData(),
      { cwd: work() },
    );
    expect(made.code, made.stderr).toBe(EXIT.ok);
    reportId = made.stdout.trim();
    const list = opened.page.getByRole('main');
    await expectText(list, /Found from the terminal/, 15_000);

    const submitted = await cli(['report', 'submit', reportId], userData());
    expect(submitted.code, submitted.stderr).toBe(EXIT.ok);
    expect((await server(reportId)).status).toBe('triaging');

    await opened.host.sandbox.askForInformation(reportId, 'Which browser did you use?');
    expect((await cli(['sync'], userData())).code).toBe(EXIT.ok);
    const inbox = json(await cli(['inbox', '--json'], userData())) as {
      items: { reportId: string }[];
    };
    expect(inbox.items.map((i) => i.reportId)).toContain(reportId);
    writeFileSync(join(work(), 'browser.txt'), 'Firefox 128\n');
    const reply = await cli(
      ['reply', reportId, '--body', 'Firefox, version attached.', '--attach', 'browser.txt'],
      userData(),
      { cwd: work() },
    );
    expect(reply.code, reply.stderr).toBe(EXIT.ok);
    await goTo(opened.page, `#/reports/${reportId}`);
    await expectText(opened.page.getByRole('main'), /Firefox, version attached\./, 15_000);
    await expectText(opened.page.getByRole('main'), /browser\.txt/, 15_000);
  }, 240_000);

  it('the window and the command edit one draft at once: both edits are kept', async () => {
    writeFileSync(join(work(), 'both.md'), reportFile('Edited twice'));
    const made = await cli(['draft', 'create', '--file', 'both.md'], userData(), { cwd: work() });
    const id = made.stdout.trim();
    const content = (await opened.host.engine.getReport(id))?.draft?.content;
    if (!content) throw new Error('no draft');
    // The window saves the asset while the command changes the title, in either order.
    const [edited] = await Promise.all([
      cli(['draft', 'edit', id, '--title', 'Edited twice, title from the terminal'], userData()),
      opened.host.engine.saveDraft(id, { ...content, asset: 'https://shop.example.com/' }, content),
    ]);
    expect(edited.code, edited.stderr).toBe(EXIT.ok);
    const after = (await opened.host.engine.getReport(id))?.draft?.content;
    expect(after?.title).toBe('Edited twice, title from the terminal');
    expect(after?.asset).toBe('https://shop.example.com/');
    expect(after?.description).toBe(content.description);
  }, 120_000);

  it('the app killed while the command replies: the reply is sent once, by the command or after', async () => {
    const body = `Sent while the app died ${randomBytes(4).toString('hex')}`;
    const run = startCli(['reply', reportId, '--body', body, '--wait', '30'], userData());
    await new Promise((resolve) => setTimeout(resolve, 300));
    opened.host.app?.kill();
    const first = await run.done;
    // 0: sent; 3: queued in the mirror; 1: the engine died before it was queued (said so).
    expect([EXIT.ok, EXIT.queued, EXIT.failed]).toContain(first.code);
    // The app is gone: the next commands start their own engine under the same lock.
    const status = await cli(['status'], userData());
    expect(status.stdout).toContain('started for this command');
    if (first.code === EXIT.failed) {
      expect(first.stderr).toMatch(/engine stopped|kept/);
      if ((await researcher(reportId)).every((m) => m.body !== body)) {
        expect((await cli(['reply', reportId, '--body', body], userData())).code).toBe(EXIT.ok);
      }
    }
    await sentOnce('the reply sent', body, 120_000);
  }, 240_000);

  it('the command killed mid-upload: the next run sends the file and the reply once', async () => {
    const body = `With a large file ${randomBytes(4).toString('hex')}`;
    writeFileSync(join(work(), 'capture.bin'), randomBytes(9 * 1024 * 1024));
    // Every answer of the service takes 10 s: the reply's upload and message stay on their way
    // long enough for a poll (itself a command run) to see them queued, and the kill lands while
    // the upload is sent or its answer not read yet. 9 MiB: under the 10 MiB upload limit.
    await opened.host.sandbox.faults({ rate: 1, latency_ms: 10_000 });
    const run = startCli(
      ['reply', reportId, '--body', body, '--attach', 'capture.bin'],
      userData(),
      {
        cwd: work(),
      },
    );
    let ended: CliResult | null = null;
    void run.done.then((result) => (ended = result));
    await until(
      'the reply queued',
      async () => {
        if (ended) throw new Error(`the reply ended before the kill: ${JSON.stringify(ended)}`);
        const status = await cli(['status', '--json'], userData());
        if (status.code !== 0) return false;
        const { queued } = json(status) as { queued: { unsent: number } };
        if (queued.unsent > 0) console.log(`killed with ${queued.unsent} change(s) unsent`);
        return queued.unsent > 0;
      },
      180_000,
    );
    run.child.kill('SIGKILL');
    await run.done;
    await opened.host.sandbox.clearFaults();
    const sent = await sentOnce('the reply and its file sent', body, 180_000);
    expect(sent[0]?.attachments.map((f) => f.name)).toEqual(['capture.bin']);
  }, 300_000);
});
