import type { Logger } from '@engine/log/logger';
import {
  initialUpdateState,
  manualCheckAnswer,
  nextUpdateState,
  onCheckRequested,
  onQuit,
  progressFraction,
  type CheckAction,
  type OutboxCount,
  type UpdateEvent,
  type UpdateState,
} from './rules/update-decision';

/** The part of electron-updater's `autoUpdater` used here. */
export interface UpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  logger: unknown;
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  on(event: 'checking-for-update', listener: () => void): unknown;
  on(
    event: 'update-available' | 'update-not-available' | 'update-downloaded',
    listener: (info: { version: string }) => void,
  ): unknown;
  on(event: 'download-progress', listener: (progress: { percent: number }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface UpdateDeps {
  isPackaged: boolean;
  currentVersion: string;
  /** electron-updater, loaded only by an installed app (a development build never needs it). */
  loadUpdater(): Promise<UpdaterLike>;
  log: Logger;
  /** A message box; resolves with the index of the button chosen. */
  ask(options: {
    message: string;
    detail?: string;
    buttons: string[];
    defaultId: number;
    cancelId: number;
  }): Promise<number>;
  /** An OS notification; `onClick` when the user clicks it. */
  notify(title: string, body: string, onClick: () => void): void;
  /** The taskbar / dock progress: 0..1, or -1 for none. */
  setProgress(fraction: number): void;
  /** The outbox's unsent count, or null when the engine cannot say. */
  outbox(): Promise<OutboxCount | null>;
  /** Quits the app (the quit path then decides about the install). */
  quit(): void;
}

/**
 * Updates from the release feed (electron-builder's `publish`, read from `app-update.yml` in the
 * installed app): a check at start and from the menu, the download in the background with its
 * progress on the taskbar, and the install on quit as `src/main/rules/update-decision.ts` says.
 * electron-updater installs on its `quit` handler when `autoInstallOnAppQuit` is true; this sets
 * it, each time the app quits, from the outbox and the user's answer.
 */
export class Updates {
  #state: UpdateState;
  #updater: UpdaterLike | null = null;
  #loading: Promise<UpdaterLike | null> | null = null;
  #manual = false;
  /** "Restart now" was chosen: the install starts the new version when done. */
  #restart = false;
  #installOnQuit = false;

  constructor(private readonly deps: UpdateDeps) {
    this.#state = initialUpdateState({ isPackaged: deps.isPackaged });
  }

  get state(): UpdateState {
    return this.#state;
  }

  /** The check at start: quiet, whatever it finds (a download announces itself when done). */
  async checkAtStart(): Promise<void> {
    if (this.#state.phase === 'disabled') {
      this.deps.log.info('updates', 'off', { reason: 'development build' });
      return;
    }
    await this.#check();
  }

  /** "Check for updates…": the user is told the outcome. */
  async checkFromMenu(): Promise<void> {
    const action = onCheckRequested(this.#state);
    if (action.action === 'check') {
      this.#manual = true;
      await this.#check();
      return;
    }
    await this.#act(action);
  }

  /**
   * Called on every quit, before the engine stops: decides whether electron-updater installs the
   * downloaded update when the app exits.
   */
  async beforeQuit(): Promise<void> {
    const updater = this.#updater;
    if (!updater || this.#state.phase !== 'downloaded') return;
    // After "Restart now" the user has answered already.
    if (!this.#restart) this.#installOnQuit = await this.#decideInstall();
    updater.autoInstallOnAppQuit = this.#installOnQuit;
  }

  /** Install now? Yes when the outbox is empty; else the user says. */
  async #decideInstall(): Promise<boolean> {
    if (this.#state.phase !== 'downloaded') return false;
    const decision = onQuit(this.#state, await this.deps.outbox().catch(() => null));
    let install = decision.action === 'install';
    if (decision.action === 'ask') {
      const answer = await this.deps.ask({
        message: decision.message,
        detail: decision.detail,
        buttons: [decision.install, decision.skip],
        defaultId: 1,
        cancelId: 1,
      });
      install = answer === 0;
    }
    this.deps.log.info('updates', install ? 'install-on-quit' : 'install-deferred', {
      version: this.#state.version,
      asked: decision.action === 'ask',
    });
    return install;
  }

  /**
   * Called once the engine has stopped, instead of `app.quit()`: after "Restart now" the installer
   * runs and starts the new version (electron-updater quits the app); true when it took over.
   */
  finishQuit(): boolean {
    if (!this.#updater || !this.#installOnQuit || !this.#restart) return false;
    this.deps.log.info('updates', 'restart-to-install');
    this.#updater.quitAndInstall(true, true);
    return true;
  }

  async #check(): Promise<void> {
    const updater = await this.#load();
    if (!updater) return;
    try {
      await updater.checkForUpdates();
    } catch {
      // The 'error' event has the details: state, log and the user's answer come from there.
    }
  }

  #load(): Promise<UpdaterLike | null> {
    this.#loading ??= this.deps
      .loadUpdater()
      .then((updater) => {
        this.#wire(updater);
        this.#updater = updater;
        return updater;
      })
      .catch((error: unknown) => {
        this.deps.log.error('updates', 'unavailable', {
          error: error instanceof Error ? error.name : 'Error',
        });
        return null;
      });
    return this.#loading;
  }

  #wire(updater: UpdaterLike): void {
    const log = this.deps.log;
    updater.autoDownload = true;
    // Decided on each quit by beforeQuit(); true here so electron-updater registers its quit
    // handler when a download completes.
    updater.autoInstallOnAppQuit = true;
    updater.logger = {
      info: (text: unknown) => log.info('updater', 'note', { text: String(text) }),
      warn: (text: unknown) => log.warn('updater', 'note', { text: String(text) }),
      error: (text: unknown) => log.error('updater', 'note', { text: String(text) }),
      debug: () => undefined,
    };
    updater.on('checking-for-update', () => this.#event({ type: 'checking' }));
    updater.on('update-available', (info) =>
      this.#event({ type: 'available', version: info.version }),
    );
    updater.on('update-not-available', (info) =>
      this.#event({ type: 'not-available', version: info.version }),
    );
    updater.on('download-progress', (p) => this.#event({ type: 'progress', percent: p.percent }));
    updater.on('update-downloaded', (info) =>
      this.#event({ type: 'downloaded', version: info.version }),
    );
    updater.on('error', (error) => {
      const code = (error as { code?: unknown }).code;
      this.#event({ type: 'error', code: typeof code === 'string' ? code : error.name });
    });
  }

  #event(event: UpdateEvent): void {
    const before = this.#state;
    this.#state = nextUpdateState(before, event);
    const state = this.#state;
    if (state.phase !== before.phase) {
      this.deps.log[state.phase === 'failed' ? 'warn' : 'info']('updates', state.phase, {
        ...('version' in state ? { version: state.version } : {}),
        ...(state.phase === 'failed' ? { code: state.code } : {}),
      });
    }
    this.deps.setProgress(progressFraction(state));
    if (state.phase === 'downloaded' && before.phase !== 'downloaded') {
      this.deps.notify(
        'Update ready',
        `Bounty Desk ${state.version} installs when you quit.`,
        () => void this.#act({ action: 'offer-restart', version: state.version }),
      );
    }
    // A check the user asked for gets its answer once it has one (downloading counts).
    if (
      this.#manual &&
      ['up-to-date', 'downloading', 'downloaded', 'failed'].includes(state.phase)
    ) {
      this.#manual = false;
      void this.#act(manualCheckAnswer(state, this.deps.currentVersion));
    }
  }

  async #act(action: CheckAction): Promise<void> {
    if (action.action === 'tell') {
      await this.deps.ask({
        message: action.message,
        ...(action.detail ? { detail: action.detail } : {}),
        buttons: ['OK'],
        defaultId: 0,
        cancelId: 0,
      });
    } else if (action.action === 'offer-restart') {
      const answer = await this.deps.ask({
        message: `Bounty Desk ${action.version} is ready to install.`,
        detail: 'Restart now to install it, or it installs when you quit.',
        buttons: ['Restart now', 'Later'],
        defaultId: 0,
        cancelId: 1,
      });
      if (answer !== 0 || !(await this.#decideInstall())) return;
      this.#restart = true;
      this.#installOnQuit = true;
      this.deps.quit();
    }
  }
}
