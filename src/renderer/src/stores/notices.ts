import { create } from 'zustand';
import type { ErrorView } from '@shared/bridge/views';
import { thrownErrorView } from '../lib/errors';

/** Errors shown in the shell's alert area, newest first, one per code+title. */
interface NoticesState {
  errors: (ErrorView & { key: number })[];
  report(error: unknown): ErrorView;
  dismiss(key: number): void;
  clear(): void;
}

let nextKey = 1;

export const useNotices = create<NoticesState>((set) => ({
  errors: [],
  report(error) {
    const view = thrownErrorView(error);
    set((s) => ({
      errors: [
        { ...view, key: nextKey++ },
        ...s.errors.filter((e) => !(e.code === view.code && e.title === view.title)),
      ].slice(0, 3),
    }));
    return view;
  },
  dismiss(key) {
    set((s) => ({ errors: s.errors.filter((e) => e.key !== key) }));
  },
  clear() {
    set({ errors: [] });
  },
}));

export const reportError = (error: unknown): ErrorView => useNotices.getState().report(error);
