import { existsSync, renameSync, rmSync } from 'node:fs';
import { join, parse } from 'node:path';
import electronLog from 'electron-log/node';
import { redactKeys } from '@shared/api/redact';

/**
 * The diagnostics log: one file per process (`main.log`, `engine.log`) in `<userData>/logs`,
 * written by electron-log's Node entry, which never imports Electron, so main and the engine
 * process share this module.
 *
 * What a line may hold is narrow on purpose: a scope, an event name and a few fields. Callers
 * pass ids, counts, states and error codes, never a title, a description, a message body or a file
 * name; every string field is still stripped of anything key-shaped and of line breaks (so a
 * hostile value cannot forge a line) and cut short.
 */

export type LogLevel = 'info' | 'warn' | 'error';
export type LogValue = string | number | boolean | null | undefined;
export type LogFields = Readonly<Record<string, LogValue>>;

export interface Logger {
  info(scope: string, event: string, fields?: LogFields): void;
  warn(scope: string, event: string, fields?: LogFields): void;
  error(scope: string, event: string, fields?: LogFields): void;
}

export interface FileLoggerOptions {
  /** The log file (absolute). Its folder is created on the first line. */
  file: string;
  /** Past this size the file rotates: `x.log` → `x.1.log` → … → `x.<keep>.log` (dropped). */
  maxBytes?: number;
  keep?: number;
  /** Secrets known to the caller, removed exactly (key shapes are removed anyway). */
  secrets?: () => readonly (string | null | undefined)[];
  /** Also print lines of this level and above on stderr (the terminal of `npm start`). */
  console?: LogLevel | false;
}

export const LOG_MAX_BYTES = 1024 * 1024;
export const LOG_KEEP = 3;
const MAX_VALUE_CHARS = 200;

/** A logger that drops everything (tests and processes started without a log folder). */
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

/** A field's value as it may appear in a line: redacted, on one line, short, quoted if needed. */
export function formatValue(
  value: LogValue,
  secrets: readonly (string | null | undefined)[] = [],
): string {
  if (value === null || value === undefined) return '-';
  if (typeof value !== 'string') return String(value);
  // eslint-disable-next-line no-control-regex
  const controls = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
  let text = redactKeys(value, ...secrets).replace(controls, ' ');
  if (text.length > MAX_VALUE_CHARS) text = `${text.slice(0, MAX_VALUE_CHARS)}…`;
  return /^[\w.:/@+-]+$/.test(text) ? text : JSON.stringify(text);
}

/** `event key=value key=value`, fields in the order given. */
export function formatLine(
  event: string,
  fields: LogFields = {},
  secrets: readonly (string | null | undefined)[] = [],
): string {
  const parts = [formatValue(event, secrets)];
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    parts.push(`${key.replace(/[^\w.-]/g, '_')}=${formatValue(value, secrets)}`);
  }
  return parts.join(' ');
}

/** Shifts `x.log` → `x.1.log`, `x.1.log` → `x.2.log`… keeping `keep` old files. */
export function rotate(file: string, keep: number): void {
  const { dir, name, ext } = parse(file);
  const generation = (n: number): string => join(dir, `${name}.${n}${ext}`);
  rmSync(generation(keep), { force: true });
  for (let n = keep - 1; n >= 1; n--) {
    if (existsSync(generation(n))) renameSync(generation(n), generation(n + 1));
  }
  renameSync(file, generation(1));
}

/** A logger writing to `options.file` (appending, synchronously, readable by the user only). */
export function createFileLogger(options: FileLoggerOptions): Logger {
  const keep = options.keep ?? LOG_KEEP;
  const log = electronLog.create({ logId: `bounty-desk:${options.file}` });
  const file = log.transports.file;
  file.resolvePathFn = () => options.file;
  file.maxSize = options.maxBytes ?? LOG_MAX_BYTES;
  file.format = '[{y}-{m}-{d} {h}:{i}:{s}.{ms}] [{level}] {text}';
  file.writeOptions = { flag: 'a', mode: 0o600, encoding: 'utf8' };
  file.archiveLogFn = (old) => {
    try {
      rotate(old.toString(), keep);
    } catch {
      // Another process holds the file (Windows) or the folder went away: keep appending.
    }
  };
  log.transports.console.level = options.console ?? false;
  log.transports.console.format = '[{level}] {text}';
  const write =
    (level: LogLevel) =>
    (scope: string, event: string, fields?: LogFields): void => {
      const secrets = options.secrets?.() ?? [];
      try {
        log[level](`(${formatValue(scope)}) ${formatLine(event, fields, secrets)}`);
      } catch {
        // A log line is never worth a failure of what it describes.
      }
    };
  return { info: write('info'), warn: write('warn'), error: write('error') };
}
