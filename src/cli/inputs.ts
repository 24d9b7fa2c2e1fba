import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError, type Io } from './terminal';

/** Everything on standard input, as text (refused from a terminal: a script pipes it). */
export async function readStdin(io: Io): Promise<string> {
  if (io.stdin.isTTY) throw new UsageError('Expected input on standard input (a pipe or a file).');
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A file's text, or standard input's for `-`. */
export async function readTextArg(io: Io, path: string): Promise<string> {
  if (path === '-') return readStdin(io);
  try {
    return await readFile(resolve(io.cwd, path), 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'unreadable';
    throw new Error(`Cannot read ${path}: ${code}.`, { cause: error });
  }
}
