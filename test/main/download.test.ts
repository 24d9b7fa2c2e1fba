import { describe, expect, it } from 'vitest';
import { attachmentName } from '../../src/main/download';
import { safeFileName } from '../../src/shared/rules/safe-file-name';
import type { ReportDetailView } from '../../src/shared/bridge/views';

describe('default name in the save dialog', () => {
  const RLO = String.fromCharCode(0x202e);
  it.each([
    ['report.pdf', 'report.pdf'],
    ['../../.bashrc', '_.._.bashrc'],
    ['..\\windows\\system32\\evil.dll', '_windows_system32_evil.dll'],
    ['.hidden', 'hidden'],
    ['CON.txt', '_CON.txt'],
    [`invoice${RLO}fdp.exe`, 'invoice_fdp.exe'],
    ['tab\tand\nnewline.txt', 'tab_and_newline.txt'],
    ['a:b*c?.png', 'a_b_c_.png'],
    ['   ', 'attachment'],
    ['', 'attachment'],
  ])('%j → %j', (raw, expected) => {
    expect(safeFileName(raw)).toBe(expected);
  });

  it('keeps the extension when shortening a long name', () => {
    const name = safeFileName(`${'x'.repeat(500)}.png`);
    expect(name.length).toBe(180);
    expect(name.endsWith('.png')).toBe(true);
  });

  it('finds the name in the report, its submission, messages or local evidence', () => {
    const detail = {
      id: 'r',
      report: null,
      draft: null,
      evidence: [{ fileId: 'e1', name: 'local.txt' }],
      messages: [{ attachments: [{ id: 'm1', name: 'reply.png' }] }],
      outbox: [],
    } as unknown as ReportDetailView;
    expect(attachmentName(detail, 'm1')).toBe('reply.png');
    expect(attachmentName(detail, 'e1')).toBe('local.txt');
    expect(attachmentName(detail, 'zz')).toBeNull();
    expect(attachmentName(null, 'zz')).toBeNull();
  });
});
