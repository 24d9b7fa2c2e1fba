/**
 * A file whose upload failed (the server unreachable) waits for its next try with an empty
 * progress bar: the next try sends it from the first byte. The walk of the built app saw a full
 * bar beside "Queued" after the connection was reset mid-upload, as if the file were sent.
 */
import { describe, expect, it } from 'vitest';
import { useAppPerTest } from './support/app';
import { expectText, goTo, until } from './support/ui';
import { savedDraft } from '../support/drafts';

const BYTES = '<form action="https://api.example.com/api/v2/users" method="post"></form>\n';

describe('renderer: an upload that failed shows no progress while it waits', () => {
  const apps = useAppPerTest('upload-retry-progress');

  it('after a reset connection the queued file shows an empty bar, then a full one once sent', async () => {
    const { host, page } = await apps.open();
    const draft = await savedDraft(host, { title: 'Role set by the client' });
    await host.settled();
    await goTo(page, `#/reports/${draft.reportId}`);
    const box = page.getByRole('textbox', { name: 'Description', exact: true });
    await box.waitFor();

    await host.sandbox.faults({ rate: 1, reset_connection: true, seed: 1 });
    const path = await host.file('poc.html', BYTES);
    await host.dropFiles(box, [{ path, bytes: BYTES, type: 'text/html' }]);
    await until(
      'an upload tried and failed',
      async () =>
        !!(await host.engine.getReport(draft.reportId))?.outbox.some(
          (e) => e.kind === 'upload_file' && e.attempts > 0 && e.state === 'pending',
        ),
      20_000,
    );
    const item = page
      .getByRole('list', { name: 'Evidence', exact: true })
      .getByRole('listitem')
      .filter({ hasText: 'poc.html' });
    await expectText(item, /Queued/u);
    const bar = item.getByRole('progressbar', { name: 'poc.html', exact: true });
    await until('the bar shown empty', async () => (await bar.getAttribute('value')) === '0');
    expect(await bar.getAttribute('max')).toBe(String(Buffer.byteLength(BYTES)));

    // Back online: sent whole, and the bar says so.
    await host.sandbox.clearFaults();
    await page.getByRole('button', { name: 'Sync now', exact: true }).click();
    await expectText(item, /Uploaded/u, 20_000);
    expect(await bar.getAttribute('value')).toBe(String(Buffer.byteLength(BYTES)));
  }, 120_000);
});
