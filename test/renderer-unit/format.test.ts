import { describe, expect, it } from 'vitest';
import { formatShortTime, formatTime } from '../../src/renderer/src/lib/format';

describe('a time in a list row', () => {
  // Local times: the row shows the researcher's own clock and calendar.
  const now = new Date(2026, 10, 30, 15, 20);
  const at = (...parts: [number, number, number, number, number]): string =>
    new Date(...parts).toISOString();

  it('is the clock today, the day this year, the day and year before', () => {
    expect(formatShortTime(at(2026, 10, 30, 9, 47), now)).toMatch(/09.47|9.47/u);
    expect(formatShortTime(at(2026, 10, 30, 9, 47), now)).not.toMatch(/Nov|2026/u);
    const thisYear = formatShortTime(at(2026, 1, 3, 9, 47), now);
    expect(thisYear).toMatch(/Feb/u);
    expect(thisYear).not.toMatch(/2026|47/u);
    expect(formatShortTime(at(2025, 10, 30, 9, 47), now)).toMatch(/Nov.*2025/u);
  });

  it('is shorter than the full time, and says so for nothing or a bad value', () => {
    const iso = at(2026, 10, 29, 23, 59);
    expect(formatShortTime(iso, now).length).toBeLessThan(formatTime(iso).length);
    expect(formatShortTime(null, now)).toBe('—');
    expect(formatShortTime('not a date', now)).toBe('not a date');
  });
});
