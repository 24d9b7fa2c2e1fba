/**
 * Focus helpers shared by the screens that move the keyboard focus after a change of screen or
 * of state: one rule for "where the focus is lost" and one way to focus a heading.
 */

/** The focus has nowhere useful to be: on the window, or on a control just disabled. */
export function focusIsLost(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || active.matches(':disabled');
}

/** Focuses a heading, making it focusable by script (not by Tab) first. */
export function focusHeading(heading: HTMLElement): void {
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus();
}

/**
 * Focuses the heading `find` returns, as soon as it returns one: checked each frame, for at most
 * `frames` frames (the screen renders after the state it waits for).
 */
export function focusHeadingOnceShown(
  find: () => HTMLElement | null | undefined,
  frames = 120,
): void {
  let left = frames;
  const place = (): void => {
    const heading = find();
    if (heading) focusHeading(heading);
    else if (--left > 0) requestAnimationFrame(place);
  };
  requestAnimationFrame(place);
}

/**
 * Moves the keyboard focus into report `reportId` open beside the list: its heading, once the pane
 * shows that report (it keeps the one before until the new one is read) and it has loaded (the
 * pane shows "Loading report…" until then).
 */
export function focusOpenReport(reportId: string): void {
  focusHeadingOnceShown(() => {
    const pane = document.querySelector(
      `.workspace-detail[data-report-id="${CSS.escape(reportId)}"]`,
    );
    return pane && !pane.querySelector('.loading') ? pane.querySelector<HTMLElement>('h1') : null;
  });
}

/**
 * Gives the focus back to `control` once it is enabled again, if the focus was lost meanwhile (a
 * button disabled while its action ran drops the focus to the window) and the screen is still
 * the one it was on. Checked each frame, for at most `frames` frames.
 */
export function focusBackWhenEnabled(control: Element | null, frames = 30): void {
  if (!(control instanceof HTMLElement) || control === document.body) return;
  const at = window.location.hash;
  let left = frames;
  const place = (): void => {
    if (!control.isConnected || window.location.hash !== at) return;
    if (!control.matches(':disabled')) {
      if (focusIsLost()) control.focus();
      return;
    }
    if (--left > 0) requestAnimationFrame(place);
  };
  requestAnimationFrame(place);
}
