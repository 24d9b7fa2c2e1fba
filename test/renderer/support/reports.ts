import { randomUUID } from '../../support/random';
import type { Page } from 'playwright-core';
import type { Report } from '../../../src/shared/api';
import type { AppHost } from '../../app/host';
import { COMPLETE_DESCRIPTION } from '../../support/fixtures';
import { goTo } from './ui';

/**
 * A report written and submitted on the service (as from the website), then synced by the app's
 * engine: what a test of a submitted report's page starts from. Returns its id.
 */
export async function submittedOnServer(
  host: AppHost,
  title: string,
  cvssVector = '',
): Promise<string> {
  const id = randomUUID();
  const put = await host.sandbox.api<Report>('PUT', `/api/reports/${id}`, {
    token: host.key,
    body: {
      program_id: host.programs.open.id,
      title,
      asset: 'https://a.example/',
      description: COMPLETE_DESCRIPTION,
      cvss_vector: cvssVector,
      revision: 0,
    },
  });
  await host.sandbox.api('POST', `/api/reports/${id}/submit`, {
    token: host.key,
    body: { revision: put.body.revision },
  });
  await host.engine.syncNow();
  return id;
}

/** Opens a report's page and waits for its title. */
export async function openReport(page: Page, id: string, title: string): Promise<void> {
  await goTo(page, `#/reports/${id}`);
  await page.getByRole('heading', { name: title, exact: true }).waitFor();
}
