/**
 * One account's reports ordered by (updated_ms desc, id asc), as `GET /api/reports` pages them.
 * A sorted array with binary-search insert and remove: a page is O(log n + page), never a scan.
 * Callers remove a report before changing its `updated_ms` and insert it again afterwards.
 */
import type { ReportRecord } from './types';

type Keyed = Pick<ReportRecord, 'id' | 'updated_ms'>;

/** Negative when a comes first in the list. */
function compare(a: Keyed, b: Keyed): number {
  if (a.updated_ms !== b.updated_ms) return b.updated_ms - a.updated_ms;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export class ReportIndex {
  private items: ReportRecord[] = [];

  get size(): number {
    return this.items.length;
  }

  /** First position whose entry does not come before `key`. */
  private lowerBound(key: Keyed): number {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(this.items[mid] as ReportRecord, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(report: ReportRecord): void {
    this.items.splice(this.lowerBound(report), 0, report);
  }

  remove(report: ReportRecord): void {
    const at = this.lowerBound(report);
    if (this.items[at] === report) this.items.splice(at, 1);
  }

  /** Replaces the contents at once (bulk creation, loading a snapshot). */
  rebuild(reports: ReportRecord[]): void {
    this.items = reports.slice().sort(compare);
  }

  positionOf(report: ReportRecord): number {
    const at = this.lowerBound(report);
    return this.items[at] === report ? at : -1;
  }

  /** Number of leading entries updated strictly after `sinceMs` (they form a prefix). */
  countUpdatedAfter(sinceMs: number): number {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.items[mid] as ReportRecord).updated_ms > sinceMs) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  slice(start: number, end: number): ReportRecord[] {
    return this.items.slice(start, end);
  }

  all(): readonly ReportRecord[] {
    return this.items;
  }
}
