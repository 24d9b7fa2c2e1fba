import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useSession } from '../stores/session';
import { useRouter, navigate } from '../stores/router';
import { sectionOf, routeHash } from '../lib/routes';
import { usePrefs } from '../stores/prefs';
import { useNotices } from '../stores/notices';
import { ErrorAlert } from '../components/ErrorAlert';
import { isConnectivityError } from '../lib/errors';
import { listen, onWindow } from '../lib/listen';
import { StatusBar } from './StatusBar';
import { StorageNotice } from './StorageNotice';
import { Inbox } from './Inbox';
import { ExternalLinkDialog } from '../components/ExternalLinkDialog';
import { shortcutFor } from './shortcuts';
import { runCommand } from './useBridgeEvents';
import { useFocusOnNavigate } from './useFocusOnNavigate';

const SECTIONS = [
  { section: 'programs', label: 'Programs' },
  { section: 'reports', label: 'Reports' },
  { section: 'payouts', label: 'Payouts' },
  { section: 'account', label: 'Account' },
] as const;

const isMac = /Mac/u.test(navigator.platform);

function useShortcuts(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      const action = shortcutFor(e, isMac);
      if (!action) return;
      e.preventDefault();
      if (action.kind === 'navigate') navigate({ name: action.section });
      else runCommand(action.name);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** A file dropped outside a drop zone must not make the window load it. */
function useNoStrayDrops(): void {
  useEffect(() => {
    const stop = (e: DragEvent): void => {
      if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
    };
    return listen(onWindow('dragover', stop), onWindow('drop', stop));
  }, []);
}

function Notices() {
  const errors = useNotices((s) => s.errors);
  const dismiss = useNotices((s) => s.dismiss);
  const lastError = useSession((s) => s.status?.lastError ?? null);
  const [dismissedSync, setDismissedSync] = useState<string | null>(null);
  const syncKey = lastError
    ? `${lastError.code}|${lastError.title}|${lastError.requestId ?? ''}`
    : null;
  // Offline is not an error: the status bar says it, and work waits to be sent.
  const connectivityError = lastError !== null && isConnectivityError(lastError);
  const showSync =
    lastError !== null &&
    !connectivityError &&
    syncKey !== dismissedSync &&
    !errors.some((e) => e.code === lastError.code);
  if (errors.length === 0 && !showSync) return null;
  return (
    <div className="notices">
      {showSync && lastError ? (
        <ErrorAlert error={lastError} onDismiss={() => setDismissedSync(syncKey)} />
      ) : null}
      {errors.map((e) => (
        <ErrorAlert key={e.key} error={e} onDismiss={() => dismiss(e.key)} />
      ))}
    </div>
  );
}

export function Shell({ children }: { children: ReactNode }) {
  const route = useRouter((s) => s.route);
  const current = sectionOf(route);
  const toggleTheme = usePrefs((s) => s.toggleTheme);
  const theme = usePrefs((s) => s.theme);
  const main = useRef<HTMLElement>(null);
  useShortcuts();
  useNoStrayDrops();
  useFocusOnNavigate(main, routeHash(route));
  return (
    <div className="shell">
      <header className="top-bar">
        <span className="brand">Bounty Desk</span>
        <nav aria-label="Main" className="main-nav">
          {SECTIONS.map(({ section, label }) => (
            <a
              key={section}
              href={routeHash({ name: section })}
              aria-current={current === section ? 'page' : undefined}
              onClick={(e) => {
                e.preventDefault();
                navigate({ name: section });
              }}
            >
              {label}
            </a>
          ))}
        </nav>
        <Inbox />
        <button
          type="button"
          className="theme-toggle"
          aria-label="Toggle theme"
          title={theme === 'dark' ? 'Switch to the light theme' : 'Switch to the dark theme'}
          onClick={toggleTheme}
        >
          {theme === 'dark' ? '☀' : '☾'}
        </button>
      </header>
      <StatusBar />
      <StorageNotice />
      <Notices />
      <ExternalLinkDialog />
      <main className="content" ref={main}>
        {children}
      </main>
    </div>
  );
}
