import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Configuration } from 'electron-builder';
import { loadBuilderConfig } from '../../scripts/pack-check';
import { DEEP_LINK_SCHEME } from '../../src/main/rules/deep-link';

const projectDir = fileURLToPath(new URL('../..', import.meta.url));

/**
 * What the installers need: the link scheme registered on every OS, and the update
 * feed that electron-updater reads, with its metadata built and uploaded for every OS.
 */
describe('installers: deep links and updates', () => {
  let config: Configuration;

  beforeAll(async () => {
    config = await loadBuilderConfig(); // loaded and schema-validated by electron-builder
  });

  it('register the bountydesk scheme for every OS (one top-level protocols entry)', () => {
    const protocols = [config.protocols ?? []].flat();
    expect(protocols.flatMap((p) => [p.schemes].flat())).toEqual([DEEP_LINK_SCHEME]);
    // A per-OS list would replace the top-level one for that OS.
    for (const os of ['mac', 'win', 'linux'] as const) {
      expect((config[os] as { protocols?: unknown } | null | undefined)?.protocols).toBeUndefined();
    }
  });

  it('publish a feed electron-updater can read, as drafts a maintainer releases', () => {
    expect(config.publish).toMatchObject({ provider: 'github', releaseType: 'draft' });
    // The Linux updater installs AppImages, macOS needs the zip next to the dmg.
    expect(JSON.stringify(config.linux?.target)).toContain('AppImage');
    expect(JSON.stringify(config.mac?.target)).toContain('zip');
  });

  it('the release workflow checks and uploads each OS update metadata', async () => {
    const { parse } = await import('yaml');
    const text = await readFile(join(projectDir, '.github', 'workflows', 'release.yml'), 'utf8');
    const workflow = parse(text) as {
      jobs: Record<string, { steps: { name?: string; run?: string; with?: { path?: string } }[] }>;
    };
    const [job] = Object.values(workflow.jobs);
    if (!job) throw new Error('no job');
    const runs = job.steps.map((s) => s.run ?? '');
    const build = runs.findIndex((r) => r.includes('npm run dist -- --publish never'));
    const check = job.steps.findIndex((s) => s.name === 'Update metadata for every OS');
    expect(build).toBeGreaterThanOrEqual(0);
    expect(check).toBeGreaterThan(build);
    const script = job.steps[check]?.run ?? '';
    for (const file of ['latest-linux.yml', 'latest-mac.yml', 'latest.yml']) {
      expect(script).toContain(`dist/${file}`);
    }
    const upload = job.steps.find((s) => s.with?.path?.includes('dist/latest*.yml'));
    expect(upload).toBeDefined();
    expect(runs.some((r) => /electron-builder --publish always/.test(r))).toBe(true);
  });
});
