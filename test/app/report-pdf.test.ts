import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { hasImageMetadata } from '../../src/engine/evidence/images';
import { COMPLETE_DESCRIPTION } from '../support/fixtures';
import { realFile } from '../support/real-corpus';
import { useAppPerTest } from '../renderer/support/app';
import { tempDirsPerTest } from '../support/temp-dirs';
import { until } from '../renderer/support/ui';

const run = promisify(execFile);

const TITLE = 'Stored XSS in invoice notes renders in the admin dashboard';
const DESCRIPTION = [
  COMPLETE_DESCRIPTION,
  '## Proof of concept',
  '',
  'Send the note, then open it as an admin: see <https://app.example.com/admin/invoices/1002>.',
  '',
  '```http',
  'POST /api/v2/invoices/1002/notes HTTP/1.1',
  'Content-Type: application/json',
  '',
  '{"note":"<img src=x onerror=alert(document.domain)>"}',
  '```',
  '',
  '| Browser | Version | Fires |',
  '| --- | --- | --- |',
  '| Firefox | 140.0 | yes |',
  '| Chromium | 138 | yes |',
  '',
].join('\n');
const QUESTION = 'Which admin role did you use to view the note?';

/**
 * "Save as PDF…" through the built app: main's save dialog, then main's printToPDF of the window,
 * which the Electron stand-in answers with Chromium's own printing of the page (Playwright's
 * `page.pdf()`, print media). The PDF is then read and rendered by poppler, as another reader
 * would: the report's words are in it, the app's navigation and buttons are not.
 */
describe('a report printed as PDF, through the built app', () => {
  const apps = useAppPerTest('report-pdf');
  const tempDir = tempDirsPerTest();

  it('prints the report view alone (description, evidence, thread) to the place main asks for', async () => {
    const { host, page } = await apps.open();
    const { reportId, content } = await host.engine.createDraft(host.programs.open.id);
    await host.engine.saveDraft(
      reportId,
      {
        title: TITLE,
        asset: 'https://app.example.com/',
        description: DESCRIPTION,
        cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:H/I:H/A:N',
      },
      content,
    );
    const poc = await host.file('poc-request.txt', 'POST /api/v2/invoices/1002/notes\n');
    await host.engine.attachFiles(reportId, [{ file: await host.tokenFor(poc) }]);
    await host.submitSettled(reportId);
    await host.sandbox.askForInformation(reportId, QUESTION);
    await host.engine.syncNow();
    await until(
      'the question in the thread',
      async () => (await host.engine.getReport(reportId))?.messages.length === 1,
    );

    const programName = (await host.engine.getReport(reportId))?.report?.program_name ?? '?';
    await page.goto(`${host.rendererUrl}#/reports/${reportId}`);
    const bar = page.getByRole('group', { name: 'Reports as Markdown files' });
    const save = bar.getByRole('button', { name: 'Save as PDF…' });
    await page.getByRole('heading', { name: TITLE }).first().waitFor();

    // Cancelled: nothing is saved, and the print view leaves the page again.
    const asked = host.start().dialogs.length;
    await save.click();
    await until('the dialog asked', async () => host.start().dialogs.length > asked);
    await until('the dialog answered', async () => (await save.isEnabled()) === true);
    const dialog = host.start().dialogs.at(-1);
    expect(dialog?.kind).toBe('save');
    expect(String(dialog?.options['defaultPath'])).toMatch(
      /Stored XSS in invoice notes renders in the admin dashboard\.pdf$/,
    );
    expect(await page.locator('.print-report').count()).toBe(0);

    const out = await tempDir('report-pdf-');
    const target = join(out, 'report.pdf');
    host.saveInDialog(target);
    await save.click();
    await bar
      .getByRole('status')
      .filter({ hasText: `Saved as PDF to ${target}` })
      .waitFor();
    expect(await page.locator('.print-report').count()).toBe(0);

    const bytes = await readFile(target);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const info = (await run('pdfinfo', [target])).stdout;
    const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? 0);
    expect(pages).toBeGreaterThanOrEqual(1);

    // A long line wraps on paper: the words are compared with their spaces made one.
    const text = (await run('pdftotext', ['-layout', target, '-'])).stdout.replace(/\s+/g, ' ');
    for (const expected of [
      TITLE,
      'Steps to reproduce',
      'Proof of concept',
      'POST /api/v2/invoices/1002/notes HTTP/1.1',
      'onerror=alert(document.domain)',
      'Firefox',
      '140.0',
      'https://app.example.com/admin/invoices/1002',
      'poc-request.txt',
      'CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:H/I:H/A:N',
      QUESTION,
      programName,
    ]) {
      expect(text, expected).toContain(expected);
    }
    // A bare address prints once; a link with words prints its address after them.
    expect(text.split('https://app.example.com/admin/invoices/1002').length - 1).toBe(1);
    for (const chrome of ['Sync now', 'Save as PDF', 'Export report', 'Payouts', 'Account']) {
      expect(text, chrome).not.toContain(chrome);
    }
    expect(text).not.toMatch(/\bPrograms\b/);

    // Every page rendered to an image, as a reader would see it (kept under test-results/).
    const shots = join('test-results', 'report-pdf');
    await rm(shots, { recursive: true, force: true });
    await mkdir(shots, { recursive: true });
    await run('pdftoppm', ['-png', '-r', '60', target, join(shots, 'page')]);
    const images = (await readdir(shots)).filter((f) => f.endsWith('.png'));
    expect(images.length).toBe(pages);
    for (const image of images) {
      const png = await readFile(join(shots, image));
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect((await stat(join(shots, image))).size).toBeGreaterThan(5_000);
    }
    console.log(`report PDF: ${pages} page(s), ${bytes.length} bytes; images in ${shots}`);
    // A whole app, a print and poppler: took over the 30 s default on 2 loaded cores.
  }, 90_000);
  it('embeds the pictures of the report\'s own files, from the cleaned copies (no EXIF, no GPS), never "[image: …]"; another report\'s is named, not embedded', async () => {
    const { host, page } = await apps.open();
    const { reportId, content } = await host.engine.createDraft(host.programs.open.id);
    // A real phone photo with EXIF and GPS (exifr's fixture, SOURCES.md), as the evidence.
    const original = realFile('images', 'exifr-img_1771.jpg');
    expect(hasImageMetadata(original)).toBe(true);
    const photo = await host.file('invoice-1002.jpg', original);
    const [file] = await host.engine.attachFiles(reportId, [{ file: await host.tokenFor(photo) }]);
    // A picture of another draft (a paste from it), 48×80 grey: printed as words, never embedded.
    const other = await host.engine.createDraft(host.programs.open.id);
    const receipt = await host.file('receipt-7.jpg', realFile('images', 'exifr-f1t.jpg'));
    const [foreign] = await host.engine.attachFiles(other.reportId, [
      { file: await host.tokenFor(receipt) },
    ]);
    await host.engine.saveDraft(
      reportId,
      {
        title: 'IDOR shows invoice 1002 to another customer',
        asset: 'https://billing.example.com/',
        description: `${COMPLETE_DESCRIPTION}\n## Proof\n\nWhat customer B sees:\n\n![invoice-1002.jpg](/reports/${reportId}/files/${file?.fileId ?? ''})\n\nAs in ![receipt-7.jpg](/reports/${other.reportId}/files/${foreign?.fileId ?? ''})\n`,
        cvss_vector: '',
      },
      content,
    );
    await host.settled();
    await page.goto(`${host.rendererUrl}#/reports/${reportId}`);
    await page.getByRole('heading', { name: 'IDOR shows invoice 1002' }).first().waitFor();

    const out = await tempDir('report-pdf-image-');
    const target = join(out, 'report.pdf');
    host.saveInDialog(target);
    const bar = page.getByRole('group', { name: 'Reports as Markdown files' });
    await bar.getByRole('button', { name: 'Save as PDF…' }).click();
    await bar
      .getByRole('status')
      .filter({ hasText: `Saved as PDF to ${target}` })
      .waitFor();

    // poppler's list of the PDF's images: the photo, at its own size (not a thumbnail).
    const list = (await run('pdfimages', ['-list', target])).stdout.trim().split('\n').slice(2);
    const images = list.map((line) => line.trim().split(/\s+/));
    expect(images.length, list.join('\n')).toBeGreaterThanOrEqual(1);
    const size = (await run('identify', ['-format', '%w %h', photo]).catch(() => null))?.stdout;
    const [w, h] = (size ?? '').split(' ').map(Number);
    if (w && h) {
      expect(images.some((cols) => Number(cols[3]) === w && Number(cols[4]) === h)).toBe(true);
    }
    const text = (await run('pdftotext', ['-layout', target, '-'])).stdout.replace(/\s+/g, ' ');
    expect(text).toContain('What customer B sees:');
    expect(text).not.toContain('[image: invoice-1002.jpg]');
    // Only this report's picture is embedded; the other report's file is named as one.
    expect(images.some((cols) => Number(cols[3]) === 48 && Number(cols[4]) === 80)).toBe(false);
    expect(text).toContain('[image: receipt-7.jpg — a file of another report, not sent]');
    // The evidence list still names it.
    expect(text).toContain('invoice-1002.jpg');

    // The embedded bytes are the cleaned copy: no EXIF, no GPS, whatever form Chromium kept.
    const dump = join(out, 'img');
    await run('pdfimages', ['-all', target, dump]);
    const dumped = (await readdir(out)).filter((f) => f.startsWith('img'));
    expect(dumped.length).toBeGreaterThanOrEqual(1);
    for (const name of dumped) {
      expect(hasImageMetadata(await readFile(join(out, name))), name).toBe(false);
    }
    const shots = join('test-results', 'report-pdf-image');
    await rm(shots, { recursive: true, force: true });
    await mkdir(shots, { recursive: true });
    await run('pdftoppm', ['-png', '-r', '60', target, join(shots, 'page')]);
    console.log(
      `report PDF with a picture: ${images.length} image(s) (${list.join(' | ')}); pages in ${shots}`,
    );
  }, 90_000);
});
