import { describe, expect, it } from 'vitest';
import { COMPLETE_DESCRIPTION } from '../support/fixtures';
import { useAppPerFile } from './support/app';
import { connection, expectText, nav, until } from './support/ui';

/**
 * needs_info is visible: the program team's messages are counted in the navigation's
 * Inbox and the status bar until the researcher opens the thread, the question until they answer
 * it (reading it is not answering it); a reload of the report in the background reads
 * nothing; the OS notification opens the thread.
 */
describe('renderer: the inbox', () => {
  let reportId = '';
  const TITLE = 'IDOR on the invoices endpoint';

  const inboxButton = () => opened.page.getByRole('banner').getByRole('button', { name: /^Inbox/ });

  const opened = useAppPerFile('inbox', {
    beforeWindow: async (h) => {
      const draft = await h.engine.createDraft(h.programs.open.id);
      reportId = draft.reportId;
      await h.engine.saveDraft(reportId, {
        title: TITLE,
        asset: 'https://app.example.com/invoices',
        description: COMPLETE_DESCRIPTION,
        cvss_vector: '',
      });
      await h.engine.submit(reportId);
      await h.settled();
      await h.engine.syncNow();
      return `#/reports/${reportId}`;
    },
  });

  it('counts a message until the thread is opened and the question until it is answered, not when reloaded behind', async () => {
    await opened.page.getByRole('heading', { name: TITLE, exact: true }).waitFor();
    // The researcher is elsewhere when the question comes.
    await nav(opened.page, 'Programs').click();
    await opened.page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();
    await opened.host.sandbox.askForInformation(reportId, 'Which account id did you use?');
    await opened.page.getByRole('button', { name: 'Sync now', exact: true }).click();
    await expectText(connection(opened.page), /\b1 unread\b/, 15_000);
    await expectText(connection(opened.page), /\b1 needs your action\b/);
    await expectText(inboxButton(), /Inbox\s*1\s*waiting/);

    // Another sync reloads the report in the background: still unread.
    await opened.page.getByRole('button', { name: 'Sync now', exact: true }).click();
    await until('the sync to finish', async () => !(await opened.host.engine.getStatus()).syncing);
    expect((await opened.host.engine.getStatus()).unread).toBe(1);

    await inboxButton().click();
    const panel = opened.page.getByRole('region', { name: 'Inbox', exact: true });
    await expectText(panel, /asks for more information; 1 new message/);
    await panel.getByRole('link', { name: TITLE, exact: true }).click();
    const messages = opened.page.getByRole('region', { name: 'Messages', exact: true });
    await expectText(messages, /Which account id did you use\?/);
    await expectText(connection(opened.page), /\b0 unread\b/);
    // Read, not answered: the question still waits, in the status bar, the Inbox and after a sync.
    await expectText(connection(opened.page), /\b1 needs your action\b/);
    await expectText(inboxButton(), /Inbox\s*1\s*waiting/);
    await opened.page.getByRole('button', { name: 'Sync now', exact: true }).click();
    await until('the sync to finish', async () => !(await opened.host.engine.getStatus()).syncing);
    await expectText(connection(opened.page), /\b1 needs your action\b/);
    await inboxButton().click();
    await expectText(panel, /asks for more information/);
    expect(await panel.innerText()).not.toMatch(/new message/);
    await inboxButton().click();

    // The answer clears it.
    await opened.page.getByRole('textbox', { name: 'Reply', exact: true }).fill('Account 42.');
    await opened.page.getByRole('button', { name: 'Send reply', exact: true }).click();
    await expectText(connection(opened.page), /\b0 need your action\b/);
    await expectText(inboxButton(), /^Inbox$/);
  });

  it('the OS notification of a question opens its thread, which reads it', async () => {
    await opened.host.settled();
    await nav(opened.page, 'Reports').click();
    await opened.page.getByRole('heading', { name: 'Reports', exact: true }).waitFor();
    await opened.host.sandbox.askForInformation(reportId, 'And the second account?');
    await opened.page.getByRole('button', { name: 'Sync now', exact: true }).click();
    await expectText(connection(opened.page), /\b1 needs your action\b/, 15_000);
    await until('the notification', () =>
      opened.host.start().notifications.some((n) => n.options.title === 'Needs your input'),
    );
    await opened.host.clickNotification();
    await opened.page.getByRole('heading', { name: TITLE, exact: true }).waitFor();
    await expectText(
      opened.page.getByRole('region', { name: 'Messages', exact: true }),
      /And the second account\?/,
    );
    await expectText(connection(opened.page), /\b0 unread\b/);
    await expectText(connection(opened.page), /\b1 needs your action\b/);
    expect(opened.app.guard.pageErrors).toEqual([]);
  });
});
