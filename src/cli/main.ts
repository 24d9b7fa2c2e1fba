import { parseArgs } from 'node:util';
import type { Command, Ctx, Values } from './command';
import { setCompletionTable, type CompletionTable } from './commands/completion';
import { linkEngine, type EngineLink, type LinkOptions } from './engine-link';
import { EXIT, EXIT_MEANINGS, type ExitCode } from './exit-codes';
import { COMMANDS, commandHelp, findCommand, generalHelp } from './table';
import { describeFailure, print, say, UsageError, type Io } from './terminal';
import { dataFolders, defaultUserData } from './user-data';

const GLOBAL_OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  'user-data': { type: 'string' },
} as const;

setCompletionTable(completionTable);

export interface CliOptions {
  engine: LinkOptions['engine'];
  version: string;
  /** The app's data folder as Electron names it (the app's --cli mode); else found per OS. */
  userData?: string;
}

/** Runs one command line; answers the exit code (src/cli/exit-codes.ts). */
export async function runCli(
  argv: readonly string[],
  io: Io,
  options: CliOptions,
): Promise<ExitCode> {
  const [first] = argv;
  if (first === undefined) {
    io.stderr.write(generalHelp(EXIT_MEANINGS));
    return EXIT.usage;
  }
  if (first === '--help' || first === '-h' || (first === 'help' && argv.length === 1)) {
    print(io, generalHelp(EXIT_MEANINGS));
    return EXIT.ok;
  }
  if (first === '--version') {
    print(io, options.version);
    return EXIT.ok;
  }
  const words = first === 'help' ? argv.slice(1) : argv;
  const found = findCommand(words);
  if (!found) {
    say(io, `Unknown command "${words[0] ?? ''}". See: bountydesk --help`);
    return EXIT.usage;
  }
  if ('group' in found) {
    const names = found.known.map((c) => c.path[1]).join(', ');
    const asked = words[1] === undefined || words[1].startsWith('-') ? '' : ` "${words[1]}"`;
    say(io, `${found.group}: unknown or missing subcommand${asked}; one of ${names}.`);
    return first === 'help' || words.includes('--help') ? EXIT.ok : EXIT.usage;
  }
  const { command, rest } = found;
  if (first === 'help') {
    print(io, commandHelp(command));
    return EXIT.ok;
  }
  let link: Promise<EngineLink> | null = null;
  try {
    const parsed = parse(command, rest);
    if (parsed.values['help'] === true) {
      print(io, commandHelp(command));
      return EXIT.ok;
    }
    const { min, max } = command.positionals;
    if (parsed.positionals.length < min || parsed.positionals.length > max) {
      throw new UsageError(
        `${command.path.join(' ')} takes ${min === max ? min : `${min} to ${max}`} argument(s).`,
      );
    }
    const userData =
      (typeof parsed.values['user-data'] === 'string' ? parsed.values['user-data'] : null) ??
      options.userData ??
      defaultUserData(io.env);
    const ctx: Ctx = {
      io,
      json: parsed.values['json'] === true,
      link: () => (link ??= linkEngine({ ...dataFolders(userData), engine: options.engine })),
    };
    return await command.run(ctx, parsed.values, parsed.positionals);
  } catch (error) {
    const { code, message } = describeFailure(error);
    say(io, message);
    if (code === EXIT.usage) say(io, `Usage: bountydesk ${command.path.join(' ')} ${command.args}`);
    return code;
  } finally {
    if (link) await (await (link as Promise<EngineLink>).catch(() => null))?.close();
  }
}

function parse(command: Command, rest: string[]): { values: Values; positionals: string[] } {
  try {
    return parseArgs({
      args: rest,
      options: { ...command.options, ...GLOBAL_OPTIONS },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function completionTable(): CompletionTable {
  const top = [...new Set(COMMANDS.map((c) => c.path[0] ?? ''))];
  const sub: Record<string, string[]> = {};
  const options: Record<string, string[]> = {};
  for (const c of COMMANDS) {
    const [group, name] = c.path;
    if (group && name) (sub[group] ??= []).push(name);
    options[c.path.join(' ')] = [
      ...Object.keys(c.options).map((o) => `--${o}`),
      '--help',
      '--user-data',
    ];
  }
  return { top, sub, options };
}
