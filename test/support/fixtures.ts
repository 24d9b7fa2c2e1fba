/** A description with text below every template heading: it passes the submit check. */
export const COMPLETE_DESCRIPTION = [
  '## Steps to reproduce',
  '',
  '1. Open the login page with `?next=javascript:alert(1)`.',
  '',
  '## Expected behavior',
  '',
  'The redirect target is rejected.',
  '',
  '## Actual behavior',
  '',
  'The script runs after login.',
  '',
  '## Security impact',
  '',
  'Session theft through a crafted link.',
  '',
].join('\n');
