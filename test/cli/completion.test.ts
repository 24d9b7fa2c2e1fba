import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main';
import type { Io } from '../../src/cli/terminal';

const work = mkdtempSync(join(tmpdir(), 'cli-completion-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `bountydesk completion <shell>` as the command prints it (no engine is started for it). */
async function script(shell: string): Promise<string> {
  let out = '';
  const io = {
    stdout: { write: (s: string) => ((out += s), true) },
    stderr: { write: () => true },
    stdin: process.stdin,
    env: {},
    cwd: work,
  } as unknown as Io;
  const code = await runCli(['completion', shell], io, {
    engine: () => {
      throw new Error('completion started an engine');
    },
    version: 'test',
  });
  expect(code).toBe(0);
  return out;
}

/** What bash offers for the words typed so far (the last one being completed). */
function bashOffers(file: string, words: string[]): string[] {
  const typed = words.map((w) => `'${w}'`).join(' ');
  const out = execFileSync(
    'bash',
    [
      '-c',
      `source ${file}; COMP_WORDS=(${typed}); COMP_CWORD=${words.length - 1}; _bountydesk; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { encoding: 'utf8', cwd: work },
  );
  return out.split('\n').filter(Boolean).sort();
}

describe('shell completion', () => {
  it('bash completes commands, subcommands and each command’s options', async () => {
    const file = join(work, 'bountydesk.bash');
    writeFileSync(file, await script('bash'));
    expect(bashOffers(file, ['bountydesk', 'rep'])).toEqual(['reply', 'report']);
    expect(bashOffers(file, ['bountydesk', 'report', 's'])).toEqual(['search', 'submit']);
    expect(bashOffers(file, ['bountydesk', 'report', 'list', '--st'])).toEqual(['--status']);
    expect(bashOffers(file, ['bountydesk', 'draft', 'create', '--a'])).toEqual(['--attach']);
  });

  it('zsh, fish and PowerShell scripts name every command', async () => {
    for (const shell of ['zsh', 'fish', 'powershell']) {
      const text = await script(shell);
      const status = shell === 'fish' ? '-l status' : '--status';
      for (const word of ['auth', 'report', 'draft', 'reply', 'inbox', 'payouts', status]) {
        expect(text, `${shell}: ${word}`).toContain(word);
      }
    }
  });
});
