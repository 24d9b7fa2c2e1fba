import type { ParseArgsConfig } from 'node:util';
import type { EngineLink } from './engine-link';
import type { ExitCode } from './exit-codes';
import type { Io } from './terminal';

export type Options = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | string[] | boolean[] | undefined>;

export interface Ctx {
  io: Io;
  /** The engine, linked on first use (help and completion never start one). */
  link(): Promise<EngineLink>;
  json: boolean;
}

export interface Command {
  /** The words that name it: `['report', 'list']`. */
  path: readonly string[];
  summary: string;
  /** The arguments after the name, as the help shows them: `<id> [--thread]`. */
  args: string;
  /** One line a researcher would type. */
  example: string;
  options: Options;
  /** How many positional arguments it takes. */
  positionals: { min: number; max: number };
  /** A read: `--json` prints the documented shape (src/cli/json-schemas.ts). */
  json?: boolean;
  /** Lines of the help below the usage: what each option does. */
  details: readonly string[];
  run(ctx: Ctx, values: Values, positionals: string[]): Promise<ExitCode>;
}

export const JSON_OPTION: Options = { json: { type: 'boolean' } };

export function str(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

export function strs(values: Values, name: string): string[] {
  const value = values[name];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
