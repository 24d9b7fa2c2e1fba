import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import type { Report } from '../../src/shared/api';
import { useAppPerFile } from './support/app';
import { caretAtEndOf, connection, expectText, pasteInto, placeInPage, until } from './support/ui';

/**
 * The report researchers write most, an API bug with the request that proves it, through the app
 * as built: a request with `Authorization: Bearer …` and a JSON body after a blank line, redacted
 * and not (a token kept on purpose), pasted and typed, online and offline (the server unreachable,
 * then back). Each reaches the server exactly as the draft holds it; none is trapped in the outbox
 * (an earlier version wrote the record of such a save as JSON no parser read, and every later
 * send failed: "Unexpected error (0) Expected ',' or '}' after property value…").
 */
describe('renderer: a request with a bearer token and a JSON body reaches the server as given', () => {
  const opened = useAppPerFile('bearer-request', {
    beforeWindow: async (h) => {
      await h.engine.syncNow();
      return `#/programs/${h.programs.open.id}`;
    },
  });

  const TOKEN = '8f14e45fceea167a5a36dedd4bea2543';
  const request = (bearer: string): string =>
    [
      'POST /api/v2/orders/7/refund HTTP/1.1',
      'Host: api.example.com',
      `Authorization: Bearer ${bearer}`,
      'User-Agent: Mozilla/5.0',
      'Content-Type: application/json',
      '',
      '{"ok": true, "amount": 100, "note": "a \\"quoted\\" word"}',
    ].join('\n');

  const description = (): Locator =>
    opened.page.getByRole('textbox', { name: 'Description', exact: true });
  const intoSection = async (name: string): Promise<void> => {
    await caretAtEndOf(description().getByRole('heading', { name, exact: true }), name);
    await opened.page.keyboard.press('ArrowDown');
  };
  const draftOf = async (reportId: string): Promise<string> =>
    (await opened.host.engine.getReport(reportId))?.draft?.content.description ?? '';
  const serverCopy = async (reportId: string): Promise<Report> =>
    (
      await opened.host.sandbox.api<Report>('GET', `/api/reports/${reportId}`, {
        token: opened.host.key,
      })
    ).body;

  /** A new report from the program page, titled: its id once the engine holds it. */
  const newReport = async (title: string): Promise<string> => {
    await opened.page.goto(
      `${opened.page.url().split('#')[0] ?? ''}#/programs/${opened.host.programs.open.id}`,
    );
    await opened.page.getByRole('button', { name: 'New report', exact: true }).click();
    await description().waitFor();
    await opened.page.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
    await opened.page
      .getByRole('textbox', { name: 'Asset', exact: true })
      .fill('https://api.example.com');
    let reportId = '';
    await until('the draft exists', async () => {
      const { items } = await opened.host.engine.listReports({});
      reportId = items.find((i) => i.title === title)?.id ?? '';
      return reportId !== '';
    });
    return reportId;
  };

  /** The credential check lists the kept token: the researcher keeps it on purpose. */
  const keepTheToken = async (): Promise<void> => {
    const finding = opened.page
      .getByRole('region', { name: 'Credentials check', exact: true })
      .getByRole('list', { name: 'Findings', exact: true })
      .getByRole('listitem', { name: /^Authorization header in Description, line \d+$/ });
    await finding.waitFor({ timeout: 20_000 });
    await finding.getByRole('button', { name: 'Keep', exact: true }).click();
    await until(
      '"Keep" is pressed',
      async () =>
        (await finding.getByRole('button', { name: 'Keep' }).getAttribute('aria-pressed')) ===
        'true',
    );
  };

  /** Sent, nothing left in the outbox, and the server holds exactly the draft. */
  const expectSentAsGiven = async (reportId: string, given: readonly string[]): Promise<void> => {
    await until(
      'the draft sent, nothing left in the outbox',
      async () => {
        const detail = await opened.host.engine.getReport(reportId);
        const draft = detail?.draft?.content.description ?? '';
        return (
          given.every((text) => draft.includes(text)) &&
          !!detail?.outbox.every((e) => e.state === 'done') &&
          (await serverCopy(reportId)).description === draft
        );
      },
      30_000,
    );
    const draft = await draftOf(reportId);
    const server = await serverCopy(reportId);
    expect(server.description).toBe(draft);
    for (const text of given) expect(server.description).toContain(text);
    expect(await opened.page.getByRole('region', { name: 'Unsent changes' }).count()).toBe(0);
    await expectText(opened.page.locator('.save-state'), /Saved and sent\./, 15_000);
  };

  it('pasted, redacted, online: the fenced request arrives byte for byte', async () => {
    const reportId = await newReport('Refund of another account (pasted, redacted)');
    await intoSection('Steps to reproduce');
    const block = request('[REDACTED:jwt]');
    await pasteInto(description(), {
      'text/plain': `Send this request as the second account:\n\n\`\`\`http\n${block}\n\`\`\`\n`,
    });
    await expectSentAsGiven(reportId, [`\`\`\`http\n${block}\n\`\`\``]);
  });

  it('pasted, token kept on purpose, offline then back: sent once the server answers', async () => {
    const reportId = await newReport('Refund of another account (pasted, kept, offline)');
    await opened.host.sandbox.faults({ rate: 1, reset_connection: true, seed: 33 });
    try {
      await intoSection('Steps to reproduce');
      const block = request(TOKEN);
      await pasteInto(description(), { 'text/plain': `\`\`\`http\n${block}\n\`\`\`\n` });
      await until('the draft saved locally', async () => (await draftOf(reportId)).includes(TOKEN));
      await keepTheToken();
      await expectText(connection(opened.page), /Offline/, 20_000);
      expect((await opened.host.engine.getStatus()).unsent).toBeGreaterThan(0);
    } finally {
      await opened.host.sandbox.clearFaults();
    }
    await opened.page.getByRole('button', { name: 'Sync now', exact: true }).click();
    await expectSentAsGiven(reportId, [`\`\`\`http\n${request(TOKEN)}\n\`\`\``]);
  });

  it('typed outside a code block, redacted, offline then back: the lines and the body arrive', async () => {
    const reportId = await newReport('Refund of another account (typed, redacted, offline)');
    await opened.host.sandbox.faults({ rate: 1, reset_connection: true, seed: 34 });
    try {
      await intoSection('Actual behavior');
      await opened.page.keyboard.type(
        'The server refunds with Authorization: Bearer [REDACTED:jwt]',
      );
      await opened.page.keyboard.press('Enter');
      await opened.page.keyboard.type('{"ok": true}');
      await until('the draft saved locally', async () =>
        (await draftOf(reportId)).includes('{"ok": true}'),
      );
      await expectText(connection(opened.page), /Offline/, 20_000);
    } finally {
      await opened.host.sandbox.clearFaults();
    }
    await opened.page.getByRole('button', { name: 'Sync now', exact: true }).click();
    await expectSentAsGiven(reportId, ['Authorization: Bearer [REDACTED:jwt]', '{"ok": true}']);
  });

  it('typed outside a code block, token kept on purpose, online', async () => {
    const reportId = await newReport('Refund of another account (typed, kept)');
    await intoSection('Actual behavior');
    await opened.page.keyboard.type(`Authorization: Bearer ${TOKEN}`);
    await opened.page.keyboard.press('Enter');
    await opened.page.keyboard.type('User-Agent: Mozilla/5.0');
    await opened.page.keyboard.press('Enter');
    await opened.page.keyboard.type('{"ok": true}');
    await until('the draft saved locally', async () =>
      (await draftOf(reportId)).includes('{"ok": true}'),
    );
    await keepTheToken();
    await expectSentAsGiven(reportId, [
      `Authorization: Bearer ${TOKEN}`,
      'User-Agent: Mozilla/5.0',
      '{"ok": true}',
    ]);
    expect(opened.app.guard.pageErrors).toEqual([]);
  });

  // A walk typed a token online: an "Unsent changes" panel came up above the title, pushed the form
  // down about 240 px under the caret's line of sight, and said the hold a third time.
  it('typed online, held by the credential check: the form stays put, the hold is listed in the check', async () => {
    const reportId = await newReport('Refund of another account (typed, held, then kept)');
    const title = opened.page.getByRole('textbox', { name: 'Title', exact: true });
    await expectText(opened.page.locator('.save-state'), /Saved and sent\./, 15_000);
    // Where the title stands in the page, whatever the pane's scroll: moved only by what comes
    // above it.
    const place = (): Promise<number> => placeInPage(title);
    const before = await place();
    await intoSection('Actual behavior');
    await opened.page.keyboard.type(`Authorization: Bearer ${TOKEN}`);
    await until('the save held back by the credential check', async () =>
      ((await opened.host.engine.getReport(reportId))?.outbox ?? []).some(
        (e) => e.state === 'parked' && e.error?.code === 'secrets_found',
      ),
    );
    const held = opened.page
      .getByRole('region', { name: 'Credentials check', exact: true })
      .getByRole('list', { name: 'Held back by this check', exact: true });
    await expectText(held, /^The draft's last save: held back, the service has not seen it\./);
    await expectText(
      opened.page.locator('.save-state'),
      /held back until each possible credential/,
    );
    expect(await opened.page.getByRole('region', { name: 'Unsent changes' }).count()).toBe(0);
    expect(await place()).toBe(before);
    await keepTheToken();
    await held.waitFor({ state: 'detached', timeout: 20_000 });
    await expectSentAsGiven(reportId, [`Authorization: Bearer ${TOKEN}`]);
  });

  // ---- For the editor engineer (h33b): the request TYPED inside a code block ----------------
  // Typing the request line by line inside a ```http block, with the blank line before the body,
  // depends on the editor keeping a code block across an empty line. Add that
  // case here as `it('typed inside a code block, …')`, with `request()` and `expectSentAsGiven`.
});
