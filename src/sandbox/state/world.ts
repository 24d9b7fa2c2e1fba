/**
 * All sandbox state in Maps: accounts, keys (by id and by hash), programs, reports with one sorted
 * index per account. Mutations of a report's `updated_ms` go through `touch` so the index stays
 * sorted. `toSnapshot`/`fromSnapshot` give the JSON form persistence writes.
 */
import type { SandboxClock } from '../clock';
import { isoOf } from '../clock';
import { ReportIndex } from './report-index';
import type { AccountRecord, KeyRecord, ProgramRecord, ReportRecord } from './types';
import { isActiveStatus } from '@shared/api';

export interface WorldSnapshot {
  version: 1;
  clock_offset_ms: number;
  last_stamp_ms: number;
  seq: number;
  accounts: AccountRecord[];
  keys: KeyRecord[];
  programs: ProgramRecord[];
  reports: ReportRecord[];
}

export class World {
  readonly accounts = new Map<string, AccountRecord>();
  readonly keys = new Map<string, KeyRecord>();
  readonly keysByHash = new Map<string, KeyRecord>();
  readonly sessions = new Map<string, string>();
  readonly programs = new Map<string, ProgramRecord>();
  readonly reports = new Map<string, ReportRecord>();
  private readonly indexes = new Map<string, ReportIndex>();
  /** Active reports per account, kept with every status change (Me and submit read it). */
  private readonly active = new Map<string, number>();
  private lastStampMs = 0;
  /** A counter for ordering and for stable names of things made by control routes. */
  seq = 0;

  constructor(readonly clock: SandboxClock) {}

  /**
   * A fresh timestamp for a change: the sandbox clock, but strictly after the previous one, so
   * `updated_since` polling never misses two changes made in the same millisecond.
   */
  stamp(): number {
    this.lastStampMs = Math.max(this.clock.now(), this.lastStampMs + 1);
    return this.lastStampMs;
  }

  nextSeq(): number {
    this.seq += 1;
    return this.seq;
  }

  addAccount(account: AccountRecord): void {
    this.accounts.set(account.uid, account);
    this.sessions.set(account.session_hash, account.uid);
  }

  addKey(key: KeyRecord): void {
    this.keys.set(key.id, key);
    this.keysByHash.set(key.hash, key);
  }

  deleteKey(key: KeyRecord): void {
    this.keys.delete(key.id);
    this.keysByHash.delete(key.hash);
  }

  keysOf(uid: string): KeyRecord[] {
    return [...this.keys.values()].filter((k) => k.uid === uid);
  }

  indexOf(uid: string): ReportIndex {
    let index = this.indexes.get(uid);
    if (!index) {
      index = new ReportIndex();
      this.indexes.set(uid, index);
    }
    return index;
  }

  addReport(report: ReportRecord): void {
    this.reports.set(report.id, report);
    this.indexOf(report.uid).insert(report);
    this.countActive(report, 1);
  }

  private countActive(report: ReportRecord, delta: number): void {
    if (isActiveStatus(report.status)) {
      this.active.set(report.uid, (this.active.get(report.uid) ?? 0) + delta);
    }
  }

  /** Every status change goes through here, so active counts stay right. */
  setStatus(report: ReportRecord, status: ReportRecord['status']): void {
    this.countActive(report, -1);
    report.status = status;
    this.countActive(report, 1);
  }

  /** Adds many reports and sorts each touched index once. */
  addReports(reports: ReportRecord[]): void {
    const touched = new Set<string>();
    for (const r of reports) {
      this.reports.set(r.id, r);
      this.countActive(r, 1);
      touched.add(r.uid);
    }
    for (const uid of touched) {
      const mine = [...this.indexOf(uid).all(), ...reports.filter((r) => r.uid === uid)];
      this.indexOf(uid).rebuild(mine);
    }
  }

  /** Marks a report changed now: a new `updated_at`, and its place in the index. */
  touch(report: ReportRecord, ms = this.stamp()): void {
    const index = this.indexOf(report.uid);
    index.remove(report);
    report.updated_ms = ms;
    report.updated_at = isoOf(ms);
    index.insert(report);
  }

  /** The caller's report, or undefined (someone else's report is treated as missing). */
  reportOf(uid: string, reportId: string): ReportRecord | undefined {
    const report = this.reports.get(reportId);
    return report && report.uid === uid ? report : undefined;
  }

  activeReports(uid: string): number {
    return this.active.get(uid) ?? 0;
  }

  clear(): void {
    this.accounts.clear();
    this.keys.clear();
    this.keysByHash.clear();
    this.sessions.clear();
    this.programs.clear();
    this.reports.clear();
    this.indexes.clear();
    this.active.clear();
    this.lastStampMs = 0;
    this.seq = 0;
  }

  toSnapshot(): WorldSnapshot {
    return {
      version: 1,
      clock_offset_ms: this.clock.offset,
      last_stamp_ms: this.lastStampMs,
      seq: this.seq,
      accounts: [...this.accounts.values()],
      keys: [...this.keys.values()],
      programs: [...this.programs.values()],
      reports: [...this.reports.values()],
    };
  }

  loadSnapshot(snapshot: WorldSnapshot): void {
    this.clear();
    this.clock.offset = snapshot.clock_offset_ms;
    this.lastStampMs = snapshot.last_stamp_ms;
    this.seq = snapshot.seq;
    for (const a of snapshot.accounts) this.addAccount(a);
    for (const k of snapshot.keys) this.addKey(k);
    for (const p of snapshot.programs) this.programs.set(p.id, p);
    this.addReports(snapshot.reports);
  }
}
