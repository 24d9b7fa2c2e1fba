import { create } from 'zustand';
import type { ReportStatus } from '../../../shared/api';
import type { ReportListItem } from '../../../shared/bridge/views';
import { bridge } from '../bridge';
import { reportError } from './notices';

/** Rows are fetched in blocks as they scroll into view, so 10,000 reports stay cheap. */
export const REPORT_BLOCK = 200;

interface ReportsState {
  search: string;
  statuses: ReportStatus[];
  total: number | null;
  blocks: Record<number, ReportListItem[]>;
  /** Bumped on every reload so stale block answers are dropped. */
  generation: number;
  setSearch(search: string): void;
  toggleStatus(status: ReportStatus): void;
  reload(): Promise<void>;
  ensureRange(first: number, last: number): void;
}

const pending = new Set<string>();

export const useReports = create<ReportsState>((set, get) => {
  async function fetchBlock(block: number, generation: number): Promise<void> {
    const key = `${generation}:${block}`;
    if (pending.has(key)) return;
    pending.add(key);
    try {
      const { search, statuses } = get();
      const result = await bridge.listReports({
        ...(search.trim() ? { search: search.trim() } : {}),
        ...(statuses.length ? { status: statuses } : {}),
        offset: block * REPORT_BLOCK,
        limit: REPORT_BLOCK,
      });
      if (get().generation !== generation) return;
      set((s) => ({ total: result.total, blocks: { ...s.blocks, [block]: result.items } }));
    } catch (e) {
      reportError(e);
    } finally {
      pending.delete(key);
    }
  }

  return {
    search: '',
    statuses: [],
    total: null,
    blocks: {},
    generation: 0,
    setSearch(search) {
      set({ search });
      void get().reload();
    },
    toggleStatus(status) {
      const statuses = get().statuses.includes(status)
        ? get().statuses.filter((s) => s !== status)
        : [...get().statuses, status];
      set({ statuses });
      void get().reload();
    },
    async reload() {
      const generation = get().generation + 1;
      set({ generation });
      const loaded = Object.keys(get().blocks).map(Number);
      const wanted = loaded.length ? loaded : [0];
      const { search, statuses } = get();
      try {
        const answers = await Promise.all(
          wanted.map((block) =>
            bridge.listReports({
              ...(search.trim() ? { search: search.trim() } : {}),
              ...(statuses.length ? { status: statuses } : {}),
              offset: block * REPORT_BLOCK,
              limit: REPORT_BLOCK,
            }),
          ),
        );
        if (get().generation !== generation) return;
        // Rows are replaced in one step, so the list never flickers through empty placeholders.
        const blocks: Record<number, ReportListItem[]> = {};
        wanted.forEach((block, i) => {
          const answer = answers[i];
          if (answer && (answer.items.length > 0 || block === 0)) blocks[block] = answer.items;
        });
        set({ blocks, total: answers[0]?.total ?? 0 });
      } catch (e) {
        reportError(e);
      }
    },
    ensureRange(first, last) {
      const { blocks, generation } = get();
      for (let b = Math.floor(first / REPORT_BLOCK); b <= Math.floor(last / REPORT_BLOCK); b++) {
        if (!blocks[b]) void fetchBlock(b, generation);
      }
    },
  };
});

export function reportAt(
  blocks: Record<number, ReportListItem[]>,
  index: number,
): ReportListItem | undefined {
  return blocks[Math.floor(index / REPORT_BLOCK)]?.[index % REPORT_BLOCK];
}
