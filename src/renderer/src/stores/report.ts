import { create } from 'zustand';
import type { ReportDetailView } from '@shared/bridge/views';
import { beforeChangingCall, bridge } from '../bridge';
import { whenIdle } from '../lib/quiet';
import { reportError } from './notices';
import { knownProgram, readProgram } from './programs';

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
  /**
   * Reads, from the mirror, the reports of the rows the list shows (the first SHOWN_READS of
   * `reportIds`), while the researcher reads the list: a click on one then shows it at once, with
   * its draft's program known (read once for them all).
   */
  readShownRows(reportIds: readonly string[]): Promise<void>;
  /**
   * The engine changed a report (no id: maybe any, a restart): a read of it made ahead is of
   * what it was before.
   */
  forgetRead(reportId?: string): void;
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

/** Told of every read of the report shown, the same as shown or not (see `onReportRead`). */
type ReadListener = (detail: ReportDetailView, startedAt: number) => void;
const readListeners = new Set<ReadListener>();

/**
 * Every read of the report shown, with when it started: a read the same as the report shown does
 * not render the screen again, yet what it says of the queue may be news to the draft's autosave
 * (a save that sent nothing: its answer said "queued", the read after it says "sent").
 */
export function onReportRead(listener: ReadListener): () => void {
  readListeners.add(listener);
  return () => readListeners.delete(listener);
}
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
  /** Taken from the reads of the rows shown: the open reads the report again behind it. */
  shown: boolean;
} | null = null;
const AHEAD_REUSE_MS = 1_000;
const fresh = (reportId: string): boolean =>
  ahead?.reportId === reportId && performance.now() - ahead.at < AHEAD_REUSE_MS;

/**
 * The reports of the rows the list showed while the researcher read it (`readShownRows`), by
 * id: a click on one shows it without waiting for the engine (a round trip of 15 to 40 ms, most
 * of a first open's wait in the bench). Such a read may be a minute old, so the open reads the
 * report again behind it, in case it changed without a word (the command line's edit); the
 * engine's word that a report changed drops its read, and any call of the page that may change
 * one drops them all, reads under way included.
 */
const shownReads = new Map<string, { detail: ReportDetailView; at: number }>();
/** About the rows a list shows at once. */
const SHOWN_READS = 12;
/** Read again before a click takes it. */
const SHOWN_READ_MS = 60_000;
/** Counts the drops: a read that was under way across one is not kept. */
let shownEpoch = 0;
function dropShownReads(reportId?: string): void {
  shownEpoch++;
  if (reportId === undefined) shownReads.clear();
  else shownReads.delete(reportId);
}
beforeChangingCall(() => dropShownReads());

function takeShownRead(reportId: string): ReportDetailView | null {
  const kept = shownReads.get(reportId);
  shownReads.delete(reportId);
  return kept && performance.now() - kept.at < SHOWN_READ_MS ? kept.detail : null;
}

/** The read behind an open shown from a read ahead: after the open's frames. */
const READ_AGAIN_TIMEOUT_MS = 500;

export const useReport = create<ReportState>((set, get) => ({
  reportId: null,
  detail: undefined,
  progress: new Map(),
  /** The researcher opens a report (its page marks the thread read while shown: useThreadRead). */
  async open(reportId) {
    const taken = fresh(reportId) ? ahead : null;
    ahead = null;
    // Shown with that read already (`showRead`): nothing to ask.
    if (!(taken && get().reportId === reportId && get().detail !== undefined)) {
      if (get().reportId !== reportId) set({ reportId, detail: undefined, progress: new Map() });
      await get().reload(taken?.read);
    }
    if (taken?.shown)
      whenIdle(() => {
        if (get().reportId === reportId) void get().reload();
      }, READ_AGAIN_TIMEOUT_MS);
  },
  readAhead(reportId) {
    if (ahead?.pressed && fresh(reportId)) {
      ahead.pressed = false;
      return ahead.read;
    }
    const shown = takeShownRead(reportId);
    const read = shown ? Promise.resolve(shown) : bridge.getReport(reportId);
    ahead = { reportId, read, at: performance.now(), pressed: false, shown: shown !== null };
    return read;
  },
  async readShownRows(reportIds) {
    const epoch = shownEpoch;
    for (const reportId of reportIds.slice(0, SHOWN_READS)) {
      const kept = shownReads.get(reportId);
      if (kept && performance.now() - kept.at < SHOWN_READ_MS / 2) continue;
      const detail = await bridge.peekReport(reportId).catch(() => null);
      // Dropped meanwhile: this read may be of what was before (and a newer list asks anew).
      if (epoch !== shownEpoch) return;
      shownReads.delete(reportId);
      if (detail) shownReads.set(reportId, { detail, at: performance.now() });
    }
    // The rows shown last are kept; the oldest go first (a Map keeps the order of insertion).
    for (const reportId of shownReads.keys()) {
      if (shownReads.size <= SHOWN_READS) break;
      shownReads.delete(reportId);
    }
    // Their drafts' programs too, once: the scope hint and the policy notice show with the draft.
    const programs = new Set<string>();
    for (const { detail } of shownReads.values()) {
      const programId = detail.draft?.programId;
      if (programId !== undefined && knownProgram(programId) === undefined) programs.add(programId);
    }
    for (const programId of programs) await readProgram(programId).catch(() => null);
  },
  readOnPress(reportId) {
    // The click's open takes the read and reports its failure; a press alone has nothing to say.
    get()
      .readAhead(reportId)
      .catch(() => undefined);
    if (ahead) ahead.pressed = true;
  },
  forgetRead(reportId) {
    if (reportId === undefined || ahead?.reportId === reportId) ahead = null;
    dropShownReads(reportId);
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
    const startedAt = performance.now();
    try {
      const detail = await (read ?? bridge.getReport(reportId));
      if (mine !== seq || get().reportId !== reportId) return;
      // The same as shown (a read again after an open, an event of a change undone): the
      // screen is not rendered again.
      if (!sameView(get().detail, detail)) set({ detail });
      if (detail) for (const listener of readListeners) listener(detail, startedAt);
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

/** Views from the engine are plain data, serialized in one order: equal text, equal view. */
function sameView(a: ReportDetailView | null | undefined, b: ReportDetailView | null): boolean {
  return a !== undefined && (a === b || JSON.stringify(a) === JSON.stringify(b));
}
