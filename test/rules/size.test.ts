import { describe, expect, it } from 'vitest';
import { formatSize } from '../../src/shared/rules/size';
import { validateFile } from '../../src/core/domain/validate';

describe('sizes as a person reads them', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.0 KiB'],
    [1536, '1.5 KiB'],
    [10 * 1024 * 1024, '10.0 MiB'],
    [12_345_678, '11.8 MiB'],
  ])('%d bytes → %s', (bytes, text) => {
    expect(formatSize(bytes)).toBe(text);
  });

  it('a file over the limit is refused in MiB, not in raw bytes', () => {
    const [issue] = validateFile({ name: 'capture.har', size: 12_345_678 });
    expect(issue?.message).toBe('is 11.8 MiB, over the limit of 10.0 MiB');
    expect(issue?.message).not.toMatch(/\d{5,}/);
  });
});
