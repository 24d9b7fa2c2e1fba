import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SaveDialog } from '../../src/main/download';
import { saveReportPdfWithDialog } from '../../src/main/report-pdf';
import type { ReportDetailView } from '../../src/shared/bridge/views';

/**
 * Main's side of "Save as PDF…": the dialog first, Chromium's printing only once a place is
 * chosen. Electron's printToPDF cannot run here; it is the one part passed in (the PDF itself is
 * tested through Chromium's printing in test/app/report-pdf.test.ts).
 */
describe('Save as PDF… in main', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'report-pdf-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const detail = {
    id: 'r1',
    report: null,
    draft: { content: { title: 'IDOR in /api/v2/users/{id}: read any invoice' } },
    evidence: [],
    messages: [],
    outbox: [],
  } as unknown as ReportDetailView;
  const PDF = new TextEncoder().encode('%PDF-1.4\n%fake bytes from the printer\n');

  function deps(answer: { canceled: boolean; filePath?: string }) {
    const asked: Parameters<SaveDialog['showSaveDialog']>[0][] = [];
    let prints = 0;
    return {
      asked,
      prints: () => prints,
      deps: {
        engine: { getReport: async () => detail },
        dialog: {
          showSaveDialog: async (options: Parameters<SaveDialog['showSaveDialog']>[0]) => {
            asked.push(options);
            return answer;
          },
        },
        downloadsDir: dir,
        printToPDF: async () => {
          prints += 1;
          return PDF;
        },
      },
    };
  }

  it('cancelled: nothing is printed and nothing written', async () => {
    const run = deps({ canceled: true });
    expect(await saveReportPdfWithDialog(run.deps, 'r1')).toBeNull();
    expect(run.prints()).toBe(0);
    expect(await readdir(dir)).toEqual([]);
    // The dialog offers the report's title, made safe as a file name, in the downloads folder.
    expect(run.asked[0]?.defaultPath).toBe(
      join(dir, 'IDOR in _api_v2_users_{id}_ read any invoice.pdf'),
    );
    expect(run.asked[0]?.properties).toEqual(['showOverwriteConfirmation']);
  });

  it('a place chosen: the window is printed once and its bytes are saved there', async () => {
    const target = join(dir, 'out.pdf');
    const run = deps({ canceled: false, filePath: target });
    expect(await saveReportPdfWithDialog(run.deps, 'r1')).toEqual({ savedTo: target });
    expect(run.prints()).toBe(1);
    expect(new Uint8Array(await readFile(target))).toEqual(PDF);
    expect(await readdir(dir)).toEqual(['out.pdf']);
  });

  it('a print that fails leaves no file under the chosen name', async () => {
    const target = join(dir, 'out.pdf');
    const run = deps({ canceled: false, filePath: target });
    const failing = {
      ...run.deps,
      printToPDF: () => Promise.reject(new Error('Failed to generate PDF')),
    };
    await expect(saveReportPdfWithDialog(failing, 'r1')).rejects.toThrow('Failed to generate PDF');
    expect(await readdir(dir)).toEqual([]);
  });

  it('a write that fails (no such folder) leaves nothing behind and says why', async () => {
    const target = join(dir, 'gone', 'out.pdf');
    const run = deps({ canceled: false, filePath: target });
    await expect(saveReportPdfWithDialog(run.deps, 'r1')).rejects.toThrow(/ENOENT/);
    expect(await readdir(dir)).toEqual([]);
  });
});
