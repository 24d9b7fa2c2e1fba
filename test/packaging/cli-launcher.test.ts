import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { Configuration } from 'electron-builder';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const config = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as Configuration;
const work = mkdtempSync(join(tmpdir(), 'cli-launcher-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** An installed layout: `<app>/bounty-desk` (a stand-in printing its arguments) and resources/cli. */
function installed(binary: string): string {
  const app = join(work, binary.replace(/\W/g, ''));
  const cli = join(app, 'resources', 'cli');
  mkdirSync(cli, { recursive: true });
  copyFileSync(join(ROOT, 'resources', 'cli', 'bountydesk'), join(cli, 'bountydesk'));
  chmodSync(join(cli, 'bountydesk'), 0o755);
  writeFileSync(join(app, binary), '#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done\n');
  chmodSync(join(app, binary), 0o755);
  return app;
}

describe('the bountydesk launcher the installers put on the PATH', () => {
  it('runs the app binary in --cli mode with the arguments as given, also through a link (/usr/bin)', () => {
    const app = installed('bounty-desk');
    const link = join(work, 'usr-bin-bountydesk');
    symlinkSync(join(app, 'resources', 'cli', 'bountydesk'), link);
    const out = execFileSync(link, ['report', 'search', 'open redirect', '--json'], {
      encoding: 'utf8',
    });
    expect(out.split('\n').filter(Boolean)).toEqual([
      '--cli',
      'report',
      'search',
      'open redirect',
      '--json',
    ]);
  });

  it('is shipped beside the app, linked by the deb and rpm scripts, on the Windows Path', () => {
    expect(config.extraResources).toEqual([{ from: 'resources/cli', to: 'cli' }]);
    for (const target of ['deb', 'rpm'] as const) {
      const options = config[target] as { afterInstall?: string; afterRemove?: string };
      expect(options.afterInstall).toBe('build/linux/after-install.sh');
      expect(options.afterRemove).toBe('build/linux/after-remove.sh');
    }
    expect(readFileSync(join(ROOT, 'build/linux/after-install.sh'), 'utf8')).toContain(
      "ln -sf '/opt/${sanitizedProductName}/resources/cli/bountydesk' '/usr/bin/bountydesk'",
    );
    expect((config.nsis as { include?: string }).include).toBe('build/installer.nsh');
    expect(readFileSync(join(ROOT, 'build/installer.nsh'), 'utf8')).toContain(
      '$INSTDIR\\resources\\cli',
    );
    expect(readFileSync(join(ROOT, 'resources/cli/bountydesk.cmd'), 'utf8')).toContain('--cli %*');
    // The command needs no Node mode of the app binary.
    expect(config.electronFuses?.runAsNode).toBe(false);
  });
});
