import { create } from 'zustand';
import { parseHash, routeHash, type Route } from '../lib/routes';
import { readRemembered, remember as keep } from '../lib/remembered';
import { listSelection, showWhenRead } from './report-opening';

interface RouterState {
  route: Route;
  /** `replace`: the route takes the place of the current history entry (Back skips it). */
  navigate(route: Route, options?: { replace?: boolean }): void;
}

const LAST_ROUTE_KEY = 'bountyDesk.lastRoute';

/** The screen the researcher left the app on, kept across restarts. */
function remember(route: Route): void {
  keep(LAST_ROUTE_KEY, routeHash(route));
}

/**
 * Where the app opens: the location's own hash (a reload, a link main opened), else the screen
 * the researcher was on last time. The stored value is parsed like any hash, so it can only name
 * one of the app's own screens.
 */
function initialRoute(): Route {
  if (window.location.hash.length > 1) return parseHash(window.location.hash);
  const last = readRemembered(LAST_ROUTE_KEY);
  if (!last) return parseHash('');
  const route = parseHash(last);
  window.location.hash = routeHash(route);
  return route;
}

export const useRouter = create<RouterState>((set) => ({
  route: initialRoute(),
  navigate(route, options) {
    const hash = routeHash(route);
    if (window.location.hash !== hash) {
      if (options?.replace) window.location.replace(hash);
      else window.location.hash = hash;
    }
    remember(route);
    set({ route });
  },
}));

window.addEventListener('hashchange', () => {
  const route = parseHash(window.location.hash);
  remember(route);
  const shown = useRouter.getState().route;
  // Back or Forward to another report: read first, so its screen does not flash "Loading
  // report…" (a hash the app set itself is the route shown already).
  if (route.name === 'report' && routeHash(route) !== routeHash(shown)) {
    showWhenRead(
      route.reportId,
      () => {
        listSelection.fromHistory = route.reportId;
        useRouter.setState({ route });
      },
      shownHash,
    );
    return;
  }
  // The hash `navigate` set: its route shows already. A new (equal) route object would render
  // every screen again, the open report's editor with it (10 ms and a frame more per open).
  if (routeHash(route) === routeHash(shown)) return;
  useRouter.setState({ route });
});

useRouter.subscribe(({ route }, { route: before }) => {
  if (route === before) return;
  listSelection.left =
    route.name === 'reports' && before.name === 'report' ? before.reportId : null;
});

export const navigate = (route: Route, options?: { replace?: boolean }): void =>
  useRouter.getState().navigate(route, options);

/** The screen shown now, as its location hash. */
export const shownHash = (): string => routeHash(useRouter.getState().route);

/**
 * Set by the menu's "Find" before it opens the reports screen: the screen focuses its searchbox
 * when it mounts with this flag, and clears it.
 */
export const pendingSearchFocus = { value: false };
