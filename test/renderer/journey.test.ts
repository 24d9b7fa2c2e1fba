import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MessageList, Report } from '../../src/shared/api';
import { TEMPLATE_HEADINGS } from '../../src/shared/api';
import { useAppPerFile } from './support/app';
import {
  connection,
  expectNoText,
  expectText,
  isEnabled,
  nav,
  pointAfterText,
  until,
  caretAtEndOf,
} from './support/ui';

/**
 * The researcher journey through the UI only, in the app as built (renderer and preload in
 * Chromium, main in its own process, the engine in a utility process) against the sandbox:
 * first run, a program, a draft written offline from the template, evidence dropped on the
 * editor, back online, the checklist failing on payments and passing once fixed, submission,
 * needs_info, a reply with a file, the decision and the payout received.
 */
describe('renderer: full researcher journey', () => {
  let reportId = '';

  const TITLE = 'Open redirect on the login page';
  const ASSET = 'https://app.example.com/login';
  const CVSS = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N';
  const SECTIONS: Record<(typeof TEMPLATE_HEADINGS)[number], string> = {
    'Steps to reproduce': 'Open the login page with a crafted next parameter and sign in.',
    'Expected behavior': 'The redirect target outside the site is rejected.',
    'Actual behavior': 'The browser follows the crafted target after login.',
    'Security impact': 'Phishing pages can borrow the trusted login flow.',
  };
  const EVIDENCE = 'GET /login?next=//evil.example HTTP/1.1\n';
  const REPLY_FILE = 'browser.txt';
  const REPLY_BYTES = 'Firefox 140 on Linux, default settings.\n';

  const serverReport = async (): Promise<Report> => {
    const res = await opened.host.sandbox.api<Report>('GET', `/api/reports/${reportId}`, {
      token: opened.host.key,
    });
    expect(res.status).toBe(200);
    return res.body;
  };
  const openReportFromList = async (): Promise<void> => {
    await nav(opened.page, 'Reports').click();
    await opened.page.getByRole('heading', { name: 'Reports', exact: true }).waitFor();
    await opened.page
      .getByRole('list', { name: 'Reports', exact: true })
      .getByRole('link', { name: new RegExp(`^${TITLE}`) })
      .first()
      .click();
  };

  const opened = useAppPerFile('journey', {
    account: { email_verified: true, payments_status: 'not_started' },
    signedIn: false,
  });

  it('first run: connecting with a server URL and an API key signs in and shows the programs', async () => {
    await opened.page.getByRole('heading', { name: 'Welcome', exact: true }).waitFor();
    await opened.page
      .getByRole('textbox', { name: 'Server URL', exact: true })
      .fill(opened.host.sandbox.url);
    await opened.page.getByRole('textbox', { name: 'API key', exact: true }).fill(opened.host.key);
    await opened.page.getByRole('button', { name: 'Connect', exact: true }).click();
    await opened.page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();
    expect(opened.host.calls.map((c) => c.name)).toContain('connect');
    expect((await opened.host.engine.getAccount())?.me?.uid).toBe(opened.host.account.uid);
    await expectText(connection(opened.page), /Online/);
    for (const link of ['Programs', 'Reports', 'Account'] as const) {
      expect(await nav(opened.page, link).count()).toBe(1);
    }
  });

  it('picks a program: its policy, rewards and "New report"', async () => {
    const programs = opened.page.getByRole('list', { name: 'Programs', exact: true });
    await programs.getByRole('link', { name: 'Acme Web Platform', exact: true }).click();
    // The description may repeat the name as a heading of its own: the page heading comes first.
    await opened.page
      .getByRole('heading', { name: 'Acme Web Platform', exact: true })
      .first()
      .waitFor();
    const policy = opened.page.getByRole('region', { name: 'Policy', exact: true });
    for (const heading of ['Scope', 'Exclusions', 'Rules', 'Eligibility', 'Disclosure']) {
      expect(await policy.getByRole('heading', { name: heading, exact: true }).count()).toBe(1);
    }
    expect(await opened.page.getByRole('table', { name: 'Rewards', exact: true }).count()).toBe(1);
    expect(
      await isEnabled(opened.page.getByRole('button', { name: 'New report', exact: true })),
    ).toBe(true);
  });

  it('writes a draft offline with the template: on disk at once, shown as unsent', async () => {
    await opened.host.sandbox.faults({ rate: 1, reset_connection: true, seed: 1 });
    await opened.page.getByRole('button', { name: 'New report', exact: true }).click();
    const description = opened.page.getByRole('textbox', { name: 'Description', exact: true });
    await description.waitFor();
    for (const heading of TEMPLATE_HEADINGS) {
      await description.getByRole('heading', { name: heading, exact: true }).waitFor();
    }
    await opened.page.getByRole('textbox', { name: 'Title', exact: true }).fill(TITLE);
    await expectText(opened.page.getByText(`${TITLE.length} / 180`, { exact: true }), /180/);
    await opened.page.getByRole('textbox', { name: 'Asset', exact: true }).fill(ASSET);
    await opened.page.getByRole('textbox', { name: 'CVSS vector', exact: true }).fill(CVSS);
    for (const heading of TEMPLATE_HEADINGS) {
      await caretAtEndOf(description.getByRole('heading', { name: heading, exact: true }), heading);
      await opened.page.keyboard.press('Enter');
      await opened.page.keyboard.type(SECTIONS[heading]);
    }

    // Autosave: the content reaches the engine's SQLite mirror while the server is unreachable.
    await until('the draft saved locally', async () => {
      const { items } = await opened.host.engine.listReports({});
      const draft = items[0] ? await opened.host.engine.getReport(items[0].id) : null;
      reportId = draft?.id ?? '';
      const content = draft?.draft?.content;
      return (
        content?.title === TITLE &&
        content.asset === ASSET &&
        content.cvss_vector === CVSS &&
        Object.values(SECTIONS).every((text) => content.description.includes(text))
      );
    });
    await expectText(connection(opened.page), /Offline/);
    await expectText(connection(opened.page), /[1-9]\d* unsent/);
    expect((await opened.host.engine.getStatus()).unsent).toBeGreaterThan(0);
  });

  it('drops an evidence file on the editor: hashed, listed as queued, linked at the drop point', async () => {
    const path = await opened.host.file('poc.txt', EVIDENCE);
    const description = opened.page.getByRole('textbox', { name: 'Description', exact: true });
    // Dropped just past the end of the last sentence: the link goes there, not elsewhere.
    const box = await description.boundingBox();
    const end = await pointAfterText(description, SECTIONS['Security impact']);
    if (!box) throw new Error('the editor is not visible');
    await opened.host.dropFiles(description, [{ path, bytes: EVIDENCE, type: 'text/plain' }], {
      x: end.x - box.x,
      y: end.y - box.y,
    });
    const sha = createHash('sha256').update(EVIDENCE).digest('hex');
    const evidence = opened.page.getByRole('list', { name: 'Evidence', exact: true });
    const item = evidence.getByRole('listitem').filter({ hasText: 'poc.txt' });
    await expectText(item, new RegExp(sha.slice(0, 12)));
    await expectText(item, /Queued|Uploading/);
    expect(await item.getByRole('progressbar', { name: 'poc.txt' }).count()).toBe(1);
    expect(
      await evidence.getByRole('button', { name: 'Remove poc.txt', exact: true }).count(),
    ).toBe(1);
    const attach = opened.host.calls.filter((c) => c.name === 'attachFiles');
    // The page hands main a token for the dropped file, never its path.
    expect(attach.at(-1)?.args).toEqual([
      reportId,
      [{ file: expect.stringMatching(/^[0-9a-f-]{36}$/), insertAt: expect.any(Number) }],
    ]);
    expect(JSON.stringify(opened.host.calls)).not.toContain(path);
    await until('the link to the file in the draft', async () => {
      const draft = (await opened.host.engine.getReport(reportId))?.draft;
      return /\]\(\/?reports\/[^)]+\/files\/[^)]+\)/.test(draft?.content.description ?? '');
    });
    const linked = (await opened.host.engine.getReport(reportId))?.draft?.content.description ?? '';
    const afterLastSentence = new RegExp(
      `login flow\\.\\s?!?\\[poc\\.txt\\]\\(/reports/${reportId}/files/[0-9a-f-]+\\)`,
    );
    expect(linked).toMatch(afterLastSentence);
    // Offline, the file waits its turn: the checklist says it is waiting, never "Failed".
    await opened.page.getByRole('button', { name: 'Check and submit', exact: true }).click();
    const dialog = opened.page.getByRole('dialog', { name: 'Submit checklist', exact: true });
    await dialog.waitFor();
    const files = dialog.getByRole('listitem').filter({ hasText: 'Evidence uploaded' });
    await expectText(files, /Waiting — (Not sent yet|Still uploading): “poc\.txt”/);
    expect(await files.innerText()).not.toContain('Failed');
    await opened.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('goes online: the file is uploaded and the draft with its link reaches the server', async () => {
    await opened.host.sandbox.clearFaults();
    await opened.page.getByRole('button', { name: 'Sync now', exact: true }).click();
    await expectText(connection(opened.page), /Online/, 15_000);
    const item = opened.page
      .getByRole('list', { name: 'Evidence', exact: true })
      .getByRole('listitem')
      .filter({ hasText: 'poc.txt' });
    await expectText(item, /Uploaded/, 15_000);
    await expectText(connection(opened.page), /\b0 unsent/, 15_000);
    const report = await serverReport();
    expect(report.status).toBe('draft');
    expect(report.title).toBe(TITLE);
    const files = Object.entries(report.attachments);
    expect(files.map(([, f]) => [f.name, f.state])).toEqual([['poc.txt', 'ready']]);
    expect(report.description).toContain(`/reports/${reportId}/files/${files[0]?.[0]}`);
    for (const text of Object.values(SECTIONS)) expect(report.description).toContain(text);
  });

  it('fails the checklist on payments: "Submit report" stays disabled', async () => {
    await opened.page.getByRole('button', { name: 'Check and submit', exact: true }).click();
    const dialog = opened.page.getByRole('dialog', { name: 'Submit checklist', exact: true });
    await dialog.waitFor();
    const payments = dialog.getByRole('listitem').filter({ hasText: 'Payout account ready' });
    await expectText(payments, /Failed/);
    await expectText(dialog.getByRole('listitem').filter({ hasText: 'Report complete' }), /Passed/);
    await expectText(
      dialog.getByRole('listitem').filter({ hasText: 'Evidence uploaded' }),
      /Passed/,
    );
    expect(
      await dialog.getByRole('button', { name: 'Submit report', exact: true }).isDisabled(),
    ).toBe(true);
    await opened.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(opened.host.calls.some((c) => c.name === 'submit')).toBe(false);
  });

  it('fixes payments from the account screen, then submits', async () => {
    await opened.host.sandbox.patchAccount(opened.host.account.uid, { payments_status: 'ready' });
    await nav(opened.page, 'Account').click();
    await opened.page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
    const main = opened.page.getByRole('main');
    await expectText(main, /not.started/i);
    await opened.page.getByRole('button', { name: 'Refresh payments status', exact: true }).click();
    await expectText(main, /\bready\b/i);
    await expectNoText(main, /not.started/i);

    await openReportFromList();
    await opened.page.getByRole('button', { name: 'Check and submit', exact: true }).click();
    const dialog = opened.page.getByRole('dialog', { name: 'Submit checklist', exact: true });
    await dialog.waitFor();
    await expectText(
      dialog.getByRole('listitem').filter({ hasText: 'Payout account ready' }),
      /Passed/,
    );
    await expectNoText(dialog, /Failed/);
    // Online, its checks need no word about the last sync (submit-waiting.test.ts has it offline).
    await expectNoText(dialog, /Offline/);
    const submit = dialog.getByRole('button', { name: 'Submit report', exact: true });
    await until('"Submit report" enabled', () => submit.isEnabled());
    await submit.click();
    await until('the server has the submission', async () => {
      const report = await serverReport();
      return report.status === 'triaging';
    });
    const report = await serverReport();
    expect(report.submission?.content.title).toBe(TITLE);
  });

  it('shows the report page, then notices needs_info once after "Sync now"', async () => {
    await openReportFromList();
    await opened.page.getByRole('heading', { name: TITLE, exact: true }).waitFor();
    await expectText(opened.page.getByRole('main'), /In triage/);
    const submission = opened.page.getByRole('region', { name: 'Submission', exact: true });
    await expectText(submission, /poc\.txt/);
    expect(await opened.page.getByRole('list', { name: 'Timeline', exact: true }).count()).toBe(1);

    await opened.host.sandbox.askForInformation(reportId, 'Which browser did you use?');
    await opened.page.getByRole('button', { name: 'Sync now', exact: true }).click();
    await until('the needs-info event', () => (opened.host.events['needs-info'] ?? []).length > 0);
    expect(opened.host.events['needs-info']).toEqual([{ reportId, title: TITLE }]);
    // main shows it as an OS notification too.
    expect(opened.host.start().notifications.map((n) => n.options)).toContainEqual({
      title: 'Needs your input',
      body: `The triage team asks for more about “${TITLE}”.`,
    });
    await expectText(opened.page.getByRole('main'), /Needs your input/);
    const messages = opened.page.getByRole('region', { name: 'Messages', exact: true });
    const question = messages.getByRole('article', { name: /^agent at / });
    await expectText(question, /Which browser did you use\?/);
    await opened.page.getByRole('button', { name: 'Sync now', exact: true }).click();
    await until('the sync to finish', async () => !(await opened.host.engine.getStatus()).syncing);
    expect(opened.host.events['needs-info']).toHaveLength(1);
  });

  it('replies with a file: one message with its attachment, back to triage', async () => {
    const path = await opened.host.file(REPLY_FILE, REPLY_BYTES);
    await opened.page
      .getByRole('textbox', { name: 'Reply', exact: true })
      .fill('Firefox 140 on Linux.');
    // The file is picked in main's own open dialog.
    opened.host.pickInDialog([path]);
    await opened.page.getByRole('button', { name: 'Attach files to reply', exact: true }).click();
    await expectText(opened.page.getByRole('main'), new RegExp(REPLY_FILE.replace('.', '\\.')));
    await opened.page.getByRole('button', { name: 'Send reply', exact: true }).click();
    const thread = async (): Promise<MessageList['messages']> => {
      const res = await opened.host.sandbox.api<MessageList>(
        'GET',
        `/api/reports/${reportId}/messages`,
        {
          token: opened.host.key,
        },
      );
      expect(res.status).toBe(200);
      return res.body.messages;
    };
    await until('the reply on the server', async () =>
      (await thread()).some((m) => m.author === 'researcher'),
    );
    const mine = (await thread()).filter((m) => m.author === 'researcher');
    expect(mine).toHaveLength(1);
    expect(mine[0]?.body).toBe('Firefox 140 on Linux.');
    expect(mine[0]?.attachments.map((a) => a.name)).toEqual([REPLY_FILE]);
    expect((await serverReport()).status).toBe('triaging');

    await opened.page.getByRole('button', { name: 'Sync now', exact: true }).click();
    const messages = opened.page.getByRole('region', { name: 'Messages', exact: true });
    const reply = messages.getByRole('article', { name: /^researcher at / });
    await expectText(reply, /Firefox 140 on Linux\./);
    await expectText(opened.page.getByRole('main'), /In triage/);
  });

  it('downloads an attachment of the thread to disk without opening it', async () => {
    const messages = opened.page.getByRole('region', { name: 'Messages', exact: true });
    const dir = join(opened.host.dataDir, 'downloads');
    await mkdir(dir, { recursive: true });
    const target = join(dir, REPLY_FILE);
    opened.host.saveInDialog(target);
    await messages.getByRole('button', { name: `Download ${REPLY_FILE}`, exact: true }).click();
    await until(
      'the downloaded file',
      async () => (await readFile(target, 'utf8').catch(() => '')) === REPLY_BYTES,
    );
    // main asked where to save, offering the attachment's own name in the downloads folder.
    const save = opened.host.start().dialogs.find((d) => d.kind === 'save');
    expect(String(save?.options['defaultPath'])).toMatch(
      new RegExp(`${REPLY_FILE.replace('.', '\\.')}$`),
    );
    await expectText(
      opened.page.getByRole('status').filter({ hasText: `Saved ${REPLY_FILE} to` }),
      new RegExp(`Saved ${REPLY_FILE.replace('.', '\\.')} to .*downloads`),
    );
    expect(opened.host.external).toEqual([]);
    expect(opened.host.start().shell.filter((s) => s.call !== 'openExternal')).toEqual([]);
  });

  it('sees the decision and the payout received after "Sync now"', async () => {
    await opened.host.sandbox.acceptAndPay(reportId, 'Confirmed and fixed, thank you!', 125_000);
    await opened.page.getByRole('button', { name: 'Sync now', exact: true }).click();
    const decision = opened.page.getByRole('region', { name: 'Decision', exact: true });
    await expectText(decision, /Accepted/i, 15_000);
    await expectText(
      opened.page.getByRole('region', { name: 'Messages', exact: true }),
      /Confirmed and fixed, thank you!/,
    );
    const payout = opened.page.getByRole('region', { name: 'Payout', exact: true });
    await expectText(payout, /received/i);
    await expectText(payout, /1,?250(\.00)?/);
    expect(opened.host.events.decision?.map((e) => [e.reportId, e.outcome])).toEqual([
      [reportId, 'accepted'],
    ]);
    expect(opened.app.guard.pageErrors).toEqual([]);
    expect(opened.app.guard.dialogs).toEqual([]);
  });
});
