/**
 * When the app looks for an update, what it tells the user, and when a downloaded update may be
 * installed. Pure: main feeds it electron-updater's events and the outbox's count, and does what
 * it answers (src/main/updates.ts).
 *
 * The rules: never on a development build (unpackaged: `npm start` with the embedded sandbox);
 * check at start and when the user asks; download in the background; install only on quit, and
 * only when nothing is waiting in the outbox, unless the user says so: unsent changes are kept on
 * disk and go out after the restart, but a researcher who just queued a submission should decide
 * whether it waits for the installer.
 */

export type UpdateState =
  | { phase: 'disabled' }
  | { phase: 'idle' }
  | { phase: 'checking' }
  | { phase: 'up-to-date'; version: string }
  | { phase: 'downloading'; version: string; percent: number }
  | { phase: 'downloaded'; version: string }
  | { phase: 'failed'; code: string };

/** electron-updater's events, reduced to what decides anything. */
export type UpdateEvent =
  | { type: 'checking' }
  | { type: 'available'; version: string }
  | { type: 'not-available'; version: string }
  | { type: 'progress'; percent: number }
  | { type: 'downloaded'; version: string }
  | { type: 'error'; code: string };

/** Updates run only in an installed app: a development build has no feed and nothing to replace. */
export function initialUpdateState(build: { isPackaged: boolean }): UpdateState {
  return build.isPackaged ? { phase: 'idle' } : { phase: 'disabled' };
}

export function nextUpdateState(state: UpdateState, event: UpdateEvent): UpdateState {
  if (state.phase === 'disabled') return state;
  // A downloaded update stays ready whatever a later check says, until the app quits.
  if (state.phase === 'downloaded' && event.type !== 'downloaded') return state;
  switch (event.type) {
    case 'checking':
      return { phase: 'checking' };
    case 'available':
      return { phase: 'downloading', version: event.version, percent: 0 };
    case 'not-available':
      return { phase: 'up-to-date', version: event.version };
    case 'progress':
      if (state.phase !== 'downloading') return state;
      return { ...state, percent: Math.max(state.percent, clampPercent(event.percent)) };
    case 'downloaded':
      return { phase: 'downloaded', version: event.version };
    case 'error':
      return { phase: 'failed', code: event.code };
  }
}

function clampPercent(percent: number): number {
  return Number.isFinite(percent) ? Math.min(100, Math.max(0, percent)) : 0;
}

/** What "Check for updates…" does in each state. */
export type CheckAction =
  | { action: 'check' }
  | { action: 'tell'; message: string; detail?: string }
  | { action: 'offer-restart'; version: string }
  | { action: 'wait' };

export function onCheckRequested(state: UpdateState): CheckAction {
  switch (state.phase) {
    case 'disabled':
      return {
        action: 'tell',
        message: 'Updates are off in this build.',
        detail:
          'A development build (npm start) is never updated; installed builds update themselves.',
      };
    case 'checking':
      return { action: 'wait' };
    case 'downloading':
      return {
        action: 'tell',
        message: `Version ${state.version} is downloading (${Math.floor(state.percent)}%).`,
        detail: 'It installs when you quit Bounty Desk.',
      };
    case 'downloaded':
      return { action: 'offer-restart', version: state.version };
    default:
      return { action: 'check' };
  }
}

/** What the user is told once a check they asked for has an answer (automatic checks are quiet). */
export function manualCheckAnswer(state: UpdateState, current: string): CheckAction {
  switch (state.phase) {
    case 'up-to-date':
      return { action: 'tell', message: `Bounty Desk ${current} is the latest version.` };
    case 'downloading':
      return {
        action: 'tell',
        message: `Version ${state.version} is available and downloading.`,
        detail: 'It installs when you quit Bounty Desk.',
      };
    case 'downloaded':
      return { action: 'offer-restart', version: state.version };
    case 'failed':
      return {
        action: 'tell',
        message: 'Could not check for updates.',
        detail: `The update server did not answer as expected (${state.code}). Try again later.`,
      };
    default:
      return { action: 'wait' };
  }
}

/** The outbox as the quit decision sees it; null when the engine could not say. */
export interface OutboxCount {
  unsent: number;
}

export type QuitAction =
  | { action: 'quit' }
  | { action: 'install' }
  | { action: 'ask'; message: string; detail: string; install: string; skip: string };

/**
 * On quit (or "Restart and install"): install a downloaded update only when the outbox is empty;
 * with changes waiting, or when the engine cannot tell, ask. Nothing downloaded: just quit.
 */
export function onQuit(state: UpdateState, outbox: OutboxCount | null): QuitAction {
  if (state.phase !== 'downloaded') return { action: 'quit' };
  if (outbox && outbox.unsent === 0) return { action: 'install' };
  const waiting =
    outbox === null
      ? 'Bounty Desk could not tell whether changes are waiting to be sent.'
      : `${outbox.unsent} ${outbox.unsent === 1 ? 'change is' : 'changes are'} not sent yet.`;
  return {
    action: 'ask',
    message: `Install version ${state.version} now?`,
    detail: `${waiting} They are kept on this computer and sent after the update; installing now delays them until Bounty Desk starts again.`,
    install: 'Install now',
    skip: 'Install later',
  };
}

/** The taskbar / dock progress for the state: a fraction while downloading, else none (-1). */
export function progressFraction(state: UpdateState): number {
  return state.phase === 'downloading' ? clampPercent(state.percent) / 100 : -1;
}
