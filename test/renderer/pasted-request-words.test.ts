/**
 * A raw HTTP request pasted into the description becomes a fenced block under a line that says
 * where it came from, in the report the triager reads: "From an HTTP request." (the walk of the
 * built app read "From a HTTP request.").
 */
import { describe, expect, it } from 'vitest';
import { useAppPerTest } from './support/app';
import { caretAtEndOf, expectText, goTo, pasteInto, until } from './support/ui';
import { savedDraft } from '../support/drafts';

const REQUEST = [
  'POST /api/v2/users HTTP/1.1',
  'Host: api.example.com',
  'Content-Type: application/json',
  '',
  '{"role": "admin", "note": "*not* _mine_"}',
].join('\n');

describe('renderer: a pasted raw request says where it came from', () => {
  const apps = useAppPerTest('pasted-request-words');

  it('reads "From an HTTP request." above the fenced request, in the editor and the draft', async () => {
    const { host, page } = await apps.open();
    const draft = await savedDraft(host, {
      title: 'Role set by the client',
      description: '## Steps to reproduce\n\nSend this request.\n',
    });
    await goTo(page, `#/reports/${draft.reportId}`);
    const box = page.getByRole('textbox', { name: 'Description', exact: true });
    await caretAtEndOf(box.getByText('Send this request.', { exact: true }), 'Send this request.');
    await page.keyboard.press('Enter');
    await pasteInto(box, { 'text/plain': REQUEST });

    await expectText(box.locator('em', { hasText: /^From a/u }), /^From an HTTP request\.$/u);
    const markdown = async (): Promise<string> =>
      (await host.engine.getReport(draft.reportId))?.draft?.content.description ?? '';
    await until('the request in the draft', async () => (await markdown()).includes('```http'));
    expect(await markdown()).toContain(`_From an HTTP request._\n\n\`\`\`http\n${REQUEST}\n\`\`\``);
  }, 120_000);
});
