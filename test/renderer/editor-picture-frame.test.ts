import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../app/build';
import { useAppPerTest } from './support/app';
import { goTo } from './support/ui';
import { savedDraft } from '../support/drafts';
import { COMPLETE_DESCRIPTION } from '../support/fixtures';

/**
 * A picture linked in the description shows in the editor without stray marks: its frame (the
 * dashed box a placeholder gets) split around the picture and drew two empty stubs, one after the
 * text before it and one below it.
 */
describe('renderer: a picture in the editor', () => {
  const apps = useAppPerTest('editor-picture-frame');

  it('shows no empty frame pieces beside the picture', async () => {
    const { host, page } = await apps.open();
    const { reportId } = await savedDraft(host, { title: 'A screenshot in the description' });
    const bytes = await readFile(
      join(ROOT, 'test/fixtures/real/images/pillow-exif_imagemagick.png'),
    );
    const png = await host.file('admin-panel.png', bytes);
    await host.engine.attachFiles(reportId, [
      { file: await host.tokenFor(png), insertAt: COMPLETE_DESCRIPTION.indexOf('## Expected') },
    ]);
    await goTo(page, `#/reports/${reportId}`);
    const image = page
      .getByRole('textbox', { name: 'Description', exact: true })
      .getByRole('img', { name: 'admin-panel.png', exact: true });
    await image.waitFor();
    const stubs = await image.evaluate((img) => {
      interface Box {
        height: number;
      }
      interface El {
        closest(s: string): El | null;
        getClientRects(): ArrayLike<Box>;
        getBoundingClientRect(): Box;
      }
      const g = globalThis as unknown as {
        getComputedStyle(el: El): { borderTopStyle: string };
      };
      const frame = (img as unknown as El).closest('.editor-image');
      if (!frame) return -1;
      if (g.getComputedStyle(frame).borderTopStyle === 'none') return 0;
      const tall = (img as unknown as El).getBoundingClientRect().height / 2;
      return Array.from(frame.getClientRects()).filter((r) => r.height < tall).length;
    });
    expect(stubs).toBe(0);
  }, 120_000);
});
