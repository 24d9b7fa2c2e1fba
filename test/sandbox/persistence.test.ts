import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ReportBody } from './helpers';
import { createDraft, Sbx, upload } from './helpers';

describe('sandbox contract: dataDir persistence', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('keeps state and file bytes across a restart', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sbx-data-'));
    dirs.push(dataDir);
    const first = await Sbx.start({ dataDir });
    const { account, write } = await first.newAccount();
    let r = await createDraft(first, write, { title: 'Persisted' });
    const up = await upload(first, write, r, 'bytes that survive');
    r = up.body;
    await first.advance(3600);
    await first.close();

    const second = await Sbx.start({ dataDir });
    try {
      expect((await second.world()).accounts.map((a) => a.uid)).toContain(account.uid);
      const again = await second.call<ReportBody & { title: string }>(
        'GET',
        `/api/reports/${r.id}`,
        { token: write },
      );
      expect(again.body).toMatchObject({ title: 'Persisted', revision: r.revision });
      const file = await fetch(`${second.url}/api/reports/${r.id}/files/${up.fileId}`, {
        headers: { authorization: `Bearer ${write}` },
      });
      expect(await file.text()).toBe('bytes that survive');
      const clock = await second.call<{ offset_seconds: number }>('GET', '/__sandbox/clock');
      expect(clock.body.offset_seconds).toBe(3600);
    } finally {
      await second.close();
    }
  });

  it('keeps nothing without dataDir', async () => {
    const first = await Sbx.start();
    const { account } = await first.newAccount();
    await first.close();
    const second = await Sbx.start();
    try {
      expect((await second.world()).accounts.map((a) => a.uid)).not.toContain(account.uid);
    } finally {
      await second.close();
    }
  });
});
