import type { Logger } from '@engine/log/logger';
import {
  linksInArgv,
  parseDeepLink,
  type DeepLinkResult,
  type DeepLinkTarget,
} from './rules/deep-link';

export type LinkSource = 'argv' | 'second-instance' | 'open-url';

/** The window as the navigator needs it. */
export interface NavigatorDeps {
  /** Whether the app can show a window yet, whether one exists, whether its page loaded. */
  window(): 'not-ready' | 'none' | 'loading' | 'loaded';
  /** Creates the window at this route (a location hash), or shows the existing one. */
  showWindow(hash?: string): void;
  /** Tells a loaded page to go there (`open-report` / `open-program`). */
  send(target: DeepLinkTarget): void;
  log: Logger;
}

/**
 * Takes the app to a place: from a `bountydesk://` link (a command line on Windows and Linux,
 * `open-url` on macOS) or a notification. A window that does not exist yet opens at the place
 * (its first route is the hash); a loaded page is told to go there; a page still loading is told
 * once it has loaded. A link that is not one of the two shapes is refused and logged, with a
 * reason and never the link itself (it is someone else's text).
 */
export class AppNavigator {
  #pending: DeepLinkTarget | null = null;

  constructor(
    private readonly deps: NavigatorDeps,
    private readonly hashOf: (target: DeepLinkTarget) => string,
  ) {}

  /** A link from outside: true when it was accepted. */
  openLink(raw: unknown, source: LinkSource): boolean {
    return this.#take(parseDeepLink(raw), source);
  }

  /** The links of a command line (the first launch's argv, or a second instance's). */
  openArgv(argv: readonly unknown[], source: 'argv' | 'second-instance'): boolean {
    const results = linksInArgv(argv);
    let opened = false;
    for (const result of results) opened = this.#take(result, source) || opened;
    return opened;
  }

  /** Goes to a place the app itself chose (a notification click). */
  open(target: DeepLinkTarget): void {
    const state = this.deps.window();
    if (state === 'loaded') {
      this.deps.showWindow();
      this.deps.send(target);
    } else if (state === 'loading') {
      this.#pending = target;
      this.deps.showWindow();
    } else if (state === 'not-ready') {
      // macOS sends `open-url` before `ready`: the first window starts there.
      this.#pending = target;
    } else {
      this.#pending = null;
      this.deps.showWindow(this.hashOf(target));
    }
  }

  /** The route a window about to be created should start at (a link that came before it). */
  takeStartHash(): string | undefined {
    const target = this.#pending;
    this.#pending = null;
    return target ? this.hashOf(target) : undefined;
  }

  /** The page finished loading: a place asked for meanwhile is sent now. */
  loaded(): void {
    const target = this.#pending;
    this.#pending = null;
    if (target) this.deps.send(target);
  }

  #take(result: DeepLinkResult, source: LinkSource): boolean {
    if (!result.ok) {
      this.deps.log.warn('links', 'refused', { source, reason: result.reason });
      return false;
    }
    const { target } = result;
    this.deps.log.info('links', 'opened', {
      source,
      kind: target.kind,
      id: target.kind === 'report' ? target.reportId : target.programId,
    });
    this.open(target);
    return true;
  }
}
