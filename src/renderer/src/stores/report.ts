import { create } from 'zustand';
import type { ReportDetailView } from '@shared/bridge/views';
import { bridge } from '../bridge';
import { reportError } from './notices';

interface Progress {
  sentBytes: number;
  size: number;
}

/** The report on screen: its mirror view, and upload progress pushed by main. */
interface ReportState {
  reportId: string | null;
  detail: ReportDetailView | null | undefined;
  /** By file id. */
  progress: ReadonlyMap<string, Progress>;
  open(reportId: string): Promise<void>;
  /**
   * Starts reading the report a click is about to show, before its screen renders: the screen's
   * own `open` then takes this read (within `AHEAD_REUSE_MS`) instead of asking again. A read
   * started by the press of the click (`readOnPress`) is taken as it is.
   */
  readAhead(reportId: string): Promise<ReportDetailView | null>;
  /**
   * The mouse went down on a report's link: its read starts now, not at the click, which comes
   * when the button is let go (50 to 150 ms later in a researcher's hand).
   */
  readOnPress(reportId: string): void;
  /** The engine changed a report: a read of it started ahead is of what it was before. */
  forgetRead(reportId: string): void;
  /** The report read ahead, in before its screen: the screen renders once, with it. */
  showRead(reportId: string, detail: ReportDetailView | null): void;
  /** Reads the open report again (`read`: a read already under way for it). */
  reload(read?: Promise<ReportDetailView | null>): Promise<void>;
  /**
   * Withdraws a report (a draft's discard is a withdrawal on the service), after `before` (e.g.
   * saving what was typed), then shows it again; a failure is reported, not thrown.
   */
  withdraw(reportId: string, before?: () => Promise<void>): Promise<void>;
  setDetail(detail: ReportDetailView): void;
  onProgress(p: { reportId: string; fileId: string; sentBytes: number; size: number }): void;
}

let seq = 0;
/**
 * The read `readAhead` started, which the screen's `open` of the same report takes once, soon
 * after (a click on the report already shown mounts no screen: a later open reads it anew).
 */
let ahead: {
  reportId: string;
  read: Promise<ReportDetailView | null>;
  at: number;
  /** Started by a press, for the click that follows to take. */
  pressed: boolean;
} | null = null;
const AHEAD_REUSE_MS = 1_000;
const fresh = (reportId: string): boolean =>
  ahead?.reportId === reportId && performance.now() - ahead.at < AHEAD_REUSE_MS;

export const useReport = create<ReportState>((set, get) => ({
  reportId: null,
  detail: undefined,
  progress: new Map(),
  /** The researcher opens a report (its page marks the thread read while shown: useThreadRead). */
  async open(reportId) {
    const read = fresh(reportId) ? ahead?.read : undefined;
    ahead = null;
    // Shown with that read already (`showRead`): nothing to ask.
    if (read && get().reportId === reportId && get().detail !== undefined) return;
    if (get().reportId !== reportId) set({ reportId, detail: undefined, progress: new Map() });
    await get().reload(read);
  },
  readAhead(reportId) {
    if (ahead?.pressed && fresh(reportId)) {
      ahead.pressed = false;
      return ahead.read;
    }
    const read = bridge.getReport(reportId);
    ahead = { reportId, read, at: performance.now(), pressed: false };
    return read;
  },
  readOnPress(reportId) {
    // The click's open takes the read and reports its failure; a press alone has nothing to say.
    get()
      .readAhead(reportId)
      .catch(() => undefined);
    if (ahead) ahead.pressed = true;
  },
  forgetRead(reportId) {
    if (ahead?.reportId === reportId) ahead = null;
  },
  showRead(reportId, detail) {
    // A reload still under way is of what was shown before.
    seq++;
    // The report shown already (its row clicked again) keeps its uploads' progress.
    if (get().reportId === reportId) set({ detail });
    else set({ reportId, detail, progress: new Map() });
  },
  async reload(read) {
    const reportId = get().reportId;
    if (!reportId) return;
    const mine = ++seq;
    try {
      const detail = await (read ?? bridge.getReport(reportId));
      if (mine === seq && get().reportId === reportId) set({ detail });
    } catch (e) {
      reportError(e);
      if (mine === seq && get().detail === undefined) set({ detail: null });
    }
  },
  async withdraw(reportId, before) {
    try {
      await before?.();
      await bridge.withdraw(reportId);
      await get().reload();
    } catch (e) {
      reportError(e);
    }
  },
  setDetail(detail) {
    if (detail.id === get().reportId) set({ detail });
  },
  onProgress(p) {
    if (p.reportId !== get().reportId) return;
    set((s) => ({
      progress: new Map(s.progress).set(p.fileId, { sentBytes: p.sentBytes, size: p.size }),
    }));
  },
}));
