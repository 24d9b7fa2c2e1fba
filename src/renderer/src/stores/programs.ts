import { create } from 'zustand';
import type { ProgramPageView, ProgramQuery, ProgramView } from '@shared/bridge/views';
import { bridge } from '../bridge';
import { reportError } from './notices';

interface ProgramsState {
  query: ProgramQuery;
  page: ProgramPageView | null;
  loading: boolean;
  /** By program id (a Map: an id from a link such as `constructor` names no program). */
  programs: ReadonlyMap<string, ProgramView | null>;
  setQuery(patch: Partial<ProgramQuery>): void;
  /** Back to every program: no search, no filter, the first page. */
  clearFilters(): void;
  load(): Promise<void>;
  loadProgram(programId: string): Promise<void>;
}

let loadSeq = 0;

/** Reads of a program under way: parts of one screen that ask for it at once share one call. */
const programReads = new Map<string, Promise<ProgramView | null>>();

/**
 * The last answer for the programs read lately: a draft's scope hint and policy notice show with
 * the draft (the form below them does not move down a frame later), then read it again.
 */
const programsKnown = new Map<string, ProgramView | null>();
/** Programs a researcher reports to at once are a handful; a program's text is a few KB. */
const PROGRAMS_KNOWN = 16;

/** The program, read through the bridge once for any number of callers waiting at the same time. */
export function readProgram(programId: string): Promise<ProgramView | null> {
  let read = programReads.get(programId);
  if (!read) {
    read = bridge.getProgram(programId).finally(() => programReads.delete(programId));
    programReads.set(programId, read);
    read.then(
      (program) => {
        programsKnown.delete(programId);
        programsKnown.set(programId, program);
        // A Map keeps its order of insertion: the least recently read go first.
        for (const id of programsKnown.keys()) {
          if (programsKnown.size <= PROGRAMS_KNOWN) break;
          programsKnown.delete(id);
        }
      },
      () => undefined,
    );
  }
  return read;
}

/** What the last read of the program said (undefined: not read lately). */
export function knownProgram(programId: string): ProgramView | null | undefined {
  return programsKnown.get(programId);
}

/** Whether a search or a filter narrows the list ("Clear filters" is offered then). */
export function isNarrowed(query: ProgramQuery): boolean {
  return (
    (query.search ?? '').trim() !== '' ||
    (query.asset?.length ?? 0) > 0 ||
    (query.reward?.length ?? 0) > 0 ||
    (query.intake?.length ?? 0) > 0 ||
    (query.updated !== undefined && query.updated !== 'any')
  );
}

export const usePrograms = create<ProgramsState>((set, get) => ({
  query: { page: 1, limit: 12 },
  page: null,
  loading: false,
  programs: new Map(),
  setQuery(patch) {
    // Any filter change goes back to the first page.
    const resetsPage = Object.keys(patch).some((k) => k !== 'page');
    set((s) => ({ query: { ...s.query, ...patch, ...(resetsPage ? { page: 1 } : {}) } }));
    void get().load();
  },
  clearFilters() {
    set((s) => ({ query: { page: 1, ...(s.query.limit ? { limit: s.query.limit } : {}) } }));
    void get().load();
  },
  async load() {
    const seq = ++loadSeq;
    set({ loading: true });
    try {
      const page = await bridge.listPrograms(get().query);
      if (seq === loadSeq) set({ page, loading: false });
    } catch (e) {
      if (seq === loadSeq) set({ loading: false });
      reportError(e);
    }
  },
  async loadProgram(programId) {
    try {
      const program = await readProgram(programId);
      set((s) => ({ programs: new Map(s.programs).set(programId, program) }));
    } catch (e) {
      set((s) => ({ programs: new Map(s.programs).set(programId, null) }));
      reportError(e);
    }
  },
}));
