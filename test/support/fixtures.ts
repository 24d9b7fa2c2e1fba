import { TEMPLATE_HEADINGS } from '../../src/shared/api';

/** A description with `sections` below the template's headings, in the template's order. */
export function templateDescription(
  sections: Record<(typeof TEMPLATE_HEADINGS)[number], string>,
): string {
  return TEMPLATE_HEADINGS.flatMap((heading) => [`## ${heading}`, '', sections[heading], '']).join(
    '\n',
  );
}

/** A description with text below every template heading: it passes the submit check. */
export const COMPLETE_DESCRIPTION = templateDescription({
  'Steps to reproduce': '1. Open the login page with `?next=javascript:alert(1)`.',
  'Expected behavior': 'The redirect target is rejected.',
  'Actual behavior': 'The script runs after login.',
  'Security impact': 'Session theft through a crafted link.',
});
