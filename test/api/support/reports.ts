import { randomUUID } from '../../support/random';
import { TEMPLATE_HEADINGS, type ReportInput } from '../../../src/shared/api';

/** A draft body that passes the submit checks: every template heading with text below it. */
export function completeDraft(programId: string, revision = 0): ReportInput {
  const description = TEMPLATE_HEADINGS.map(
    (heading) => `## ${heading}\n\nSomething concrete about ${heading.toLowerCase()}.`,
  ).join('\n\n');
  return {
    program_id: programId,
    title: 'Stored XSS in the profile name',
    asset: 'https://app.example.com/profile',
    description,
    cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N',
    revision,
  };
}

export const newId = (): string => randomUUID();
