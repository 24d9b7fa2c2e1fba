import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes';
import { tempDirsPerTest } from '../support/temp-dirs';

// `npm run cli` runs the command from its sources (tsx), with no build: it then starts the engine
// from its source file too. The path to that file is spelled in src/cli/index.ts, where a folder
// move does not reach it through an import: this runs it.
const ROOT = join(__dirname, '../..');
const tempDir = tempDirsPerTest();

describe('the command from its sources', () => {
  it('starts the engine from its source file and answers', async () => {
    const userData = await tempDir('bd-cli-source-');
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'src/cli/index.ts'), 'status'],
      {
        cwd: ROOT,
        env: { ...process.env, BOUNTYDESK_USER_DATA: userData },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(run.stderr).toBe('');
    // A new data folder: no account yet, which `status` says with its exit code.
    expect(run.status).toBe(EXIT.notSignedIn);
    expect(run.stdout).toMatch(/^Account: +not signed in$/m);
    expect(run.stdout).toMatch(/^Engine: +started for this command$/m);
  }, 90_000);
});
