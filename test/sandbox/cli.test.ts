import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';

describe('sandbox contract: command line', () => {
  it('prints one "sandbox listening on" line, serves, and exits on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/sandbox/cli.ts',
        '--port',
        '0',
        '--agent',
        'manual',
        '--rate-limits',
        'spec',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const lines = createInterface({ input: child.stdout });
    const [first] = (await once(lines, 'line')) as [string];
    expect(first).toMatch(/^sandbox listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = first.replace('sandbox listening on ', '');
    const res = await fetch(`${url}/api/programs`);
    expect(res.status).toBe(200);
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
  });

  it('rejects an unknown agent mode', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/sandbox/cli.ts', '--agent', 'robot'],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(2);
  });
});
