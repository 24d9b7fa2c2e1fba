import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../app/build';

export const CLI = join(ROOT, 'out', 'main', 'cli.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** From the spawn to the exit (ms). */
  ms: number;
  /** From the spawn to the first byte on stdout or stderr (ms). */
  firstMs: number | null;
}

/** The built command in its own Node process, in `userData`, as a script would run it. */
export function startCli(
  args: string[],
  userData: string,
  options: { stdin?: string | Buffer; cwd?: string } = {},
): { child: ChildProcess; done: Promise<CliResult> } {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, BOUNTYDESK_USER_DATA: userData, CI: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let firstMs: number | null = null;
  const first = () => (firstMs ??= performance.now() - started);
  child.stdout?.on('data', (d: Buffer) => {
    first();
    stdout += d.toString('utf8');
  });
  child.stderr?.on('data', (d: Buffer) => {
    first();
    stderr += d.toString('utf8');
  });
  child.stdin?.end(options.stdin ?? '');
  const done = new Promise<CliResult>((resolve) =>
    child.on('close', (code) =>
      resolve({ code, stdout, stderr, ms: performance.now() - started, firstMs }),
    ),
  );
  return { child, done };
}

export function cli(
  args: string[],
  userData: string,
  options: { stdin?: string | Buffer; cwd?: string } = {},
): Promise<CliResult> {
  return startCli(args, userData, options).done;
}

/** The `--json` output, parsed; the test fails with the command's stderr when it is not JSON. */
export function json(result: CliResult): unknown {
  try {
    return JSON.parse(result.stdout);
  } catch {
    throw new Error(`not JSON (exit ${result.code}): ${result.stdout}\n${result.stderr}`);
  }
}

/** `draft create --file <file>` with each attachment as its own `--attach`. */
export function draftCreateArgs(file: string, attachments: string[]): string[] {
  return ['draft', 'create', '--file', file, ...attachments.flatMap((a) => ['--attach', a])];
}
