import { describe, expect, it } from 'vitest';
import { formatSize, formatSizes } from '../../src/shared/rules/size';
import { validateFile } from '../../src/engine/domain/validate';

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

  it('a size just over the limit is written so that the two numbers differ', () => {
    const limit = 10 * 1024 * 1024;
    const [issue] = validateFile({ name: 'capture.har', size: limit + 1 });
    expect(issue?.message).toBe(
      'is 10,485,761 bytes, over the limit of 10,485,760 bytes (10.0 MiB)',
    );
    expect(formatSizes(limit, limit)).toEqual(['10.0 MiB', '10.0 MiB']);
  });
});
