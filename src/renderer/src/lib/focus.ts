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
