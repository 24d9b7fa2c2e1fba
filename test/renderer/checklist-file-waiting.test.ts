/**
 * The submit checklist on a file not sent yet, offline, of a draft the credentials check holds
 * (a Bearer token in its request): the file waits, it has not failed, so the checklist's advice
 * is not to retry or remove it (the walk of the built app saw "retry or remove a failed file"
 * under a file that only waited) and says what it waits for.
 */
import { describe, expect, it } from 'vitest';
import { useAppPerTest } from './support/app';
import { expectText, goTo } from './support/ui';
import { savedDraft } from '../support/drafts';
import { templateDescription } from '../support/fixtures';

const TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';

describe('renderer: the submit checklist on a file not sent yet', () => {
  const apps = useAppPerTest('checklist-file-waiting');

  it('says the file waits for the server and the credentials check, nothing to retry or remove', async () => {
    const { host, page } = await apps.open();
    const draft = await savedDraft(host, {
      title: 'Role set by the client',
      description: templateDescription({
        'Steps to reproduce': [
          '```http',
          'POST /api/v2/users HTTP/1.1',
          `Authorization: Bearer ${TOKEN}`,
          '',
          '{"role": "admin"}',
          '```',
        ].join('\n'),
        'Expected behavior': 'The role field is ignored.',
        'Actual behavior': 'The user is an admin.',
        'Security impact': 'Anyone becomes an admin.',
      }),
    });
    await goTo(page, `#/reports/${draft.reportId}`);
    await page.getByRole('textbox', { name: 'Description', exact: true }).waitFor();

    // Offline: every request to the server has its connection reset.
    await host.sandbox.faults({ rate: 1, reset_connection: true, seed: 1 });
    const evidence = await host.file('poc.html', '<script>alert(document.domain)</script>\n');
    host.pickInDialog([evidence]);
    await page.getByRole('button', { name: 'Attach files', exact: true }).click();
    const listed = page
      .getByRole('list', { name: 'Evidence', exact: true })
      .getByRole('listitem')
      .filter({ hasText: 'poc.html' });
    await expectText(listed, /Queued/);

    await page.getByRole('button', { name: 'Check and submit', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Submit checklist', exact: true });
    const files = dialog.getByRole('listitem').filter({ hasText: 'Evidence uploaded' });
    await expectText(files, /Waiting — Not sent yet: “poc\.html”\./u);
    const said = await files.innerText();
    expect(said).not.toMatch(/fail/iu);
    expect(said).toMatch(/once the server answers and each credential found is redacted or kept/u);
  }, 120_000);
});
