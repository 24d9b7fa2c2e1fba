import { useEffect, useRef, type RefObject } from 'react';
import { focusHeading } from '../lib/focus';

/**
 * After the user moves to another screen, keyboard focus moves there too: to what the new screen
 * focused itself (a new draft focuses its title), or else to the screen's heading, so a keyboard
 * or screen-reader user does not stay behind on a control of the screen that is gone. A report
 * opened beside the reports list from elsewhere (the inbox, a link) focuses its own heading; one
 * opened from the list leaves the focus in the list. The first screen after start keeps the
 * browser's own focus.
 */
export function useFocusOnNavigate(main: RefObject<HTMLElement | null>, routeKey: string): void {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    // The screen renders (and may load) after the route changes: look once it has painted.
    let frames = 0;
    let handle = 0;
    const place = (): void => {
      const root = main.current;
      if (!root) return;
      if (root.contains(document.activeElement) && document.activeElement !== root) return;
      // A pane marked to be focused first (the report opened beside the reports list) gets
      // the focus once it has loaded, rather than the first heading on the screen.
      const pane = root.querySelector<HTMLElement>('[data-focus-first]');
      const ready = pane && !pane.querySelector('.loading');
      if (pane && !ready && ++frames < 120) {
        handle = requestAnimationFrame(place);
        return;
      }
      const heading =
        (ready ? pane.querySelector<HTMLElement>('h1') : null) ??
        root.querySelector<HTMLElement>('h1');
      if (!heading) {
        if (++frames < 30) handle = requestAnimationFrame(place);
        return;
      }
      focusHeading(heading);
    };
    handle = requestAnimationFrame(place);
    return () => cancelAnimationFrame(handle);
  }, [main, routeKey]);
}
