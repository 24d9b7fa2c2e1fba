import type { Locator, Page } from 'playwright-core';
import { hashOf, until } from './ui';

/**
 * Saves the open report's draft as template `name` from the Templates dialog of its file bar, and
 * waits until the dialog says so. The dialog (left open) and that status line.
 */
export async function saveOpenDraftAsTemplate(
  page: Page,
  name: string,
): Promise<{ dialog: Locator; said: Locator }> {
  const bar = page.getByRole('group', { name: 'Reports as Markdown files' });
  await bar.getByRole('button', { name: 'Templates…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Templates' });
  await dialog.getByLabel('Template name').fill(name);
  await dialog.getByRole('button', { name: 'Save open draft as template' }).click();
  const said = dialog.getByRole('status').filter({ hasText: `Saved template “${name}”` });
  await said.waitFor();
  return { dialog, said };
}

/**
 * Starts a report from template `name` in the open Templates dialog, as the user fills it in, and
 * waits until the new draft (not report `fromId`) is open. The new report's id.
 */
export async function startReportFromTemplate(
  page: Page,
  dialog: Locator,
  name: string,
  report: { programId: string; title: string; asset: string; fromId: string },
): Promise<string> {
  await dialog.getByRole('button', { name: `New report from “${name}”` }).click();
  await dialog.getByLabel('Program').selectOption(report.programId);
  await dialog.getByLabel('Report title').fill(report.title);
  await dialog.getByLabel('Report asset').fill(report.asset);
  await dialog.getByRole('button', { name: 'Start report' }).click();
  await until('the new draft opened', async () => {
    const hash = await hashOf(page);
    return hash.startsWith('#/reports/') && hash !== `#/reports/${report.fromId}`;
  });
  return (await hashOf(page)).replace('#/reports/', '');
}
