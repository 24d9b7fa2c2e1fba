/**
 * "Save as template…" under the description, as a researcher uses it: a save without a name is
 * refused under the name's input, saying which field it is ("Template name: …", tied to the
 * input); the name typed next saves the template, and a live credential in it is replaced by
 * `[REDACTED:<kind>]`, which the message says.
 */
import { describe, expect, it } from 'vitest';
import { useAppPerTest } from './support/app';
import { expectText, goTo, until } from './support/ui';
import { savedDraft } from '../support/drafts';

const TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
const DESCRIPTION = [
  '## Steps to reproduce',
  '',
  '```http',
  'POST /api/v2/users HTTP/1.1',
  'Host: api.example.com',
  `Authorization: Bearer ${TOKEN}`,
  '',
  '{"role": "admin"}',
  '```',
  '',
].join('\n');

describe('renderer: saving a draft as a template', () => {
  const apps = useAppPerTest('save-as-template');

  it('names the field a save without a name misses, then saves with the token redacted', async () => {
    const { host, page } = await apps.open();
    const draft = await savedDraft(host, {
      title: 'Role set by the client',
      description: DESCRIPTION,
    });
    await goTo(page, `#/reports/${draft.reportId}`);
    await page.getByRole('textbox', { name: 'Description', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Save as template…', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save as template', exact: true });
    await dialog.getByRole('button', { name: 'Save template', exact: true }).click();
    const alert = dialog.getByRole('alert');
    await expectText(alert, /^Template name: give the template a name/u);
    const input = dialog.getByRole('textbox', { name: 'Template name', exact: true });
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    expect(await input.getAttribute('aria-describedby')).toBe(await alert.getAttribute('id'));

    await input.click();
    await page.keyboard.type('API mass assignment');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await expectText(
      page.getByRole('status').filter({ hasText: 'Saved template' }),
      /^Saved template “API mass assignment”\. It holds \[REDACTED:jwt\] for the JSON Web Token on line 6/u,
    );
    let body = '';
    await until('the template saved', async () => {
      const templates = await host.engine.listTemplates();
      body = templates.find((t) => t.name === 'API mass assignment')?.body ?? '';
      return body !== '';
    });
    expect(body).toContain('Authorization: Bearer [REDACTED:jwt]\n\n{"role": "admin"}');
    expect(body).not.toContain(TOKEN);
  }, 120_000);
});
