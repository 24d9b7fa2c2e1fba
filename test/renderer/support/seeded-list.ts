import { join } from 'node:path';
import { seedMirror } from '../../../bench/seed';
import { freshList } from '../../../bench/renderer-open';
import type { AppPerTest, OpenApp } from './app';

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
