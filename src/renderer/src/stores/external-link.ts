import { create } from 'zustand';
import { bridge } from '../bridge';
import { classifyLink } from '../lib/safe-url';
import { reportError } from './notices';

/**
 * A link from content someone else wrote (a policy, a triage message, a description) goes to the
 * OS browser only after the researcher saw its whole address and said yes: a link text can claim
 * any site. `ExternalLinkDialog` (in the shell) asks; main checks the address again.
 */
interface ExternalLinkState {
  /** The address waiting for the researcher's answer. */
  pending: string | null;
  request(href: string): void;
  confirm(): void;
  cancel(): void;
}

export const useExternalLink = create<ExternalLinkState>((set, get) => ({
  pending: null,
  request(href) {
    const link = classifyLink(href);
    if (link.kind !== 'external') return;
    set({ pending: link.href });
  },
  confirm() {
    const href = get().pending;
    set({ pending: null });
    if (href) bridge.openExternal(href).catch(reportError);
  },
  cancel() {
    set({ pending: null });
  },
}));

/** Asks before opening `href` in the browser (see `useExternalLink`). */
export const requestExternal = (href: string): void => useExternalLink.getState().request(href);
