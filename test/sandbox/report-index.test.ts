import { describe, expect, it } from 'vitest';
import { ReportIndex } from '../../src/sandbox/state/report-index';
import type { ReportRecord } from '../../src/sandbox/state/types';

const rec = (id: string, updated_ms: number): ReportRecord => ({ id, updated_ms }) as ReportRecord;

describe('sandbox performance structure: the per-account sorted report index', () => {
  it('keeps (updated_at desc, id asc) order through inserts, moves and removals', () => {
    const index = new ReportIndex();
    const records = Array.from({ length: 500 }, (_, i) =>
      rec(`id-${(i * 7919) % 500}`, (i * 31) % 97),
    );
    for (const r of records) index.insert(r);
    const moved = records[10] as ReportRecord;
    index.remove(moved);
    moved.updated_ms = 1000;
    index.insert(moved);
    index.remove(records[20] as ReportRecord);
    const all = index.all();
    expect(all).toHaveLength(499);
    expect(all[0]).toBe(moved);
    for (let i = 1; i < all.length; i++) {
      const a = all[i - 1] as ReportRecord;
      const b = all[i] as ReportRecord;
      expect(a.updated_ms > b.updated_ms || (a.updated_ms === b.updated_ms && a.id < b.id)).toBe(
        true,
      );
    }
    expect(index.positionOf(records[20] as ReportRecord)).toBe(-1);
  });

  it('finds the updated_since prefix and a cursor position by binary search', () => {
    const index = new ReportIndex();
    index.rebuild(Array.from({ length: 100_000 }, (_, i) => rec(`r${i}`, i)));
    expect(index.countUpdatedAfter(89_999.5)).toBe(10_000);
    expect(index.countUpdatedAfter(-1)).toBe(100_000);
    const target = index.all()[54_321] as ReportRecord;
    expect(index.positionOf(target)).toBe(54_321);
  });
});
