import { toBridgeError } from '@engine/host/bridge-error';
import { ENGINE_CODES } from '@shared/errors/error-data';
import { EXIT, type ExitCode } from './exit-codes';

/** Where the command writes: results on stdout, messages and progress on stderr. */
export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** An error in how the command was called: exit code 2 with the command's usage. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A refusal the command itself makes after a check (exit code 4); the details are printed. */
export class RefusedError extends Error {
  override readonly name = 'RefusedError';
}

/**
 * Text from the service, or from files, as it may reach a terminal: without control characters
 * (an escape sequence in a hostile report title would otherwise rewrite the terminal), tabs and
 * line breaks kept.
 */
export function safeText(text: string): string {
  return text.replace(UNSAFE, '');
}

/** C0 and C1 controls but tab and line feed, DEL, and the bidirectional overrides. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function say(io: Io, line: string): void {
  io.stderr.write(`${line}\n`);
}

export function print(io: Io, text: string): void {
  io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

export function printJson(io: Io, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * A progress line on stderr when it is a terminal (redrawn in place); nothing when piped, so a
 * script's logs hold no carriage returns.
 */
export function progress(io: Io): {
  update(label: string, done?: number, total?: number): void;
  end(): void;
} {
  const tty = io.stderr.isTTY === true && !io.env['CI'];
  let shown = false;
  return {
    update(label, done, total) {
      if (!tty) return;
      const width = 24;
      const bar =
        done !== undefined && total
          ? ` [${'#'.repeat(Math.round((width * Math.min(done, total)) / total)).padEnd(width, '.')}] ${done}/${total}`
          : '';
      io.stderr.write(`\r\u001b[2K${label}${bar}`);
      shown = true;
    },
    end() {
      if (shown) io.stderr.write('\r\u001b[2K');
      shown = false;
    },
  };
}

/**
 * The exit code and the message of a failure (the engine's, the command's own). The engine's
 * arrive as data (BridgeError, over the socket or from an engine started here): the exit code
 * follows its `code`, and the field and code are printed as they are, never read from the text.
 */
export function describeFailure(error: unknown): { code: ExitCode; message: string } {
  if (error instanceof UsageError) return { code: EXIT.usage, message: error.message };
  if (error instanceof RefusedError) return { code: EXIT.refused, message: error.message };
  const plain = toBridgeError(error);
  // A code of its own is printed for scripts to match; `unexpected` would say nothing.
  const said = [
    plain.field ? `field: ${plain.field}` : '',
    plain.code === ENGINE_CODES.unexpected ? '' : `code: ${plain.code}`,
  ].filter(Boolean);
  const message = safeText(said.length ? `${plain.message} (${said.join(', ')})` : plain.message);
  if (plain.code === ENGINE_CODES.notSignedIn) {
    return { code: EXIT.notSignedIn, message: `${message} Sign in with: bountydesk auth login` };
  }
  if (plain.code === ENGINE_CODES.signInFailed) return { code: EXIT.notSignedIn, message };
  if (plain.status !== undefined && plain.status > 0) {
    const id = plain.requestId ? ` (request ${plain.requestId})` : '';
    return { code: EXIT.server, message: `${message}${id}` };
  }
  return { code: EXIT.failed, message };
}
