import { join } from 'node:path';
import { seedMirror } from '../../../bench/seed';
import type { Page } from 'playwright-core';
import { freshList, scriptsLoading } from '../../../bench/renderer-open';
import type { AppPerTest, OpenApp } from './app';
import { until } from './ui';

/**
 * The app at the reports list on the bench's own mirror of `reports` reports (bench/seed.ts,
 * written before the window opens, as after a restart: synced a moment ago, no job due), signed out of the service: what the
 * tests of opening reports from the list start from, as the renderer bench does.
 */
export async function openSeededList(apps: AppPerTest, reports: number): Promise<OpenApp> {
  const opened = await apps.open({
    signedIn: false,
    hash: '#/reports',
    beforeWindow: async (h) => {
      await h.mirrorBeforeStart();
      await seedMirror(join(h.dataDir, 'userData', 'data'), reports);
    },
  });
  await freshList(opened.page);
  return opened;
}

/** The draft editor's chunk, which the list loads while idle (ReportsScreen's idle prefetch). */
const DRAFT_CHUNK = /^DraftEditor.*\.js$/u;

/**
 * Reloads the app at the list and waits until its idle prefetch has loaded the draft editor's
 * code, as after a researcher read the list for a moment: a click before that renders the
 * chunk's own loading state. The script files loaded meanwhile.
 */
export async function freshListWithEditorCode(page: Page): Promise<string[]> {
  const loading = scriptsLoading(page);
  try {
    await freshList(page);
    await until(
      'the draft editor chunk loaded while the list sat idle',
      () => loading.names.some((name) => DRAFT_CHUNK.test(name)),
      30_000,
    );
    return loading.names;
  } finally {
    loading.stop();
  }
}
