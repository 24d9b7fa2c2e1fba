import { create } from 'zustand';
import type { EngineState } from '@shared/bridge/contract';
import type { AccountView, StatusView } from '@shared/bridge/views';
import { bridge } from '../bridge';
import { reportError } from './notices';

interface SessionState {
  /** 'loading' until the first getAccount answers. */
  phase: 'loading' | 'signed-out' | 'signed-in';
  account: AccountView | null;
  status: StatusView | null;
  /** The engine process: 'restarting' while main starts it again after it stopped. */
  engine: EngineState;
  setEngine(state: EngineState): void;
  loadAccount(): Promise<void>;
  setAccount(account: AccountView | null): void;
  refreshStatus(): Promise<void>;
  setStatus(status: StatusView): void;
  signOut(): Promise<void>;
}

export const useSession = create<SessionState>((set) => ({
  phase: 'loading',
  account: null,
  status: null,
  engine: 'ready',
  setEngine(engine) {
    set({ engine });
  },
  async loadAccount() {
    try {
      const account = await bridge.getAccount();
      set({ account, phase: account ? 'signed-in' : 'signed-out' });
    } catch (e) {
      reportError(e);
      set({ phase: 'signed-out' });
    }
  },
  setAccount(account) {
    set({ account, phase: account ? 'signed-in' : 'signed-out' });
  },
  async refreshStatus() {
    try {
      set({ status: await bridge.getStatus() });
    } catch {
      // Not signed in yet, or the engine is starting: the status event brings it later.
    }
  },
  setStatus(status) {
    set({ status });
  },
  async signOut() {
    try {
      await bridge.signOut();
      set({ account: null, phase: 'signed-out', status: null });
    } catch (e) {
      reportError(e);
    }
  },
}));

/** Why writes are off, or null when they are allowed. */
export function readOnlyReason(account: AccountView | null): string | null {
  if (!account) return 'Connect to a server first.';
  if (account.scope === 'read') {
    return 'Your API key can only read. Connect with a write key to make changes.';
  }
  return null;
}

export const useReadOnlyReason = (): string | null => useSession((s) => readOnlyReason(s.account));
