import type { ReactNode } from 'react';
import { routeHash, type Route } from '../lib/routes';
import { navigate } from '../stores/router';

/**
 * A link to one of the app's own screens: its address is the route's hash (so it reads and
 * copies as one), a click navigates in place. `onFollow` runs first (a menu closing itself).
 */
export function RouteLink({
  to,
  onFollow,
  children,
}: {
  to: Route;
  onFollow?: () => void;
  children: ReactNode;
}) {
  return (
    <a
      href={routeHash(to)}
      onClick={(e) => {
        e.preventDefault();
        onFollow?.();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}
