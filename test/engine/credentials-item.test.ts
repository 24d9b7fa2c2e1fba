/**
 * The submit checklist's credentials item, as the researcher reads it: what was scanned when
 * nothing was found, and how to fix it when something was.
 */
import { describe, expect, it } from 'vitest';
import { credentialsItem } from '../../src/engine/commands/evidence-checklist';

const scan = (scannedFiles: number) => ({
  reportId: 'a1b2c3d4-0000-4000-8000-000000000001',
  findings: [],
  open: 0,
  scannedFiles,
  notScanned: [],
});

describe('the checklist item "No credentials in the report"', () => {
  // Walk 19 read "Title, asset, description and 0 evidence files scanned."
  it('says what it scanned, without counting files there are none of', () => {
    expect(credentialsItem(scan(0)).detail).toBe(
      'Title, asset and description scanned; no evidence files.',
    );
    expect(credentialsItem(scan(1)).detail).toBe(
      'Title, asset, description and 1 evidence file scanned.',
    );
    expect(credentialsItem(scan(3)).detail).toBe(
      'Title, asset, description and 3 evidence files scanned.',
    );
  });

  it('names the section to fix it in as the app writes names', () => {
    expect(credentialsItem(scan(0)).fix).toContain('“Credentials check”');
  });
});
