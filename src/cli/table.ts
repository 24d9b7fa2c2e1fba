import type { Command } from './command';
import { ACCOUNT_COMMANDS } from './commands/account';
import { COMPLETION_COMMAND } from './commands/completion';
import { DRAFT_COMMANDS } from './commands/drafts';
import { REPORT_COMMANDS } from './commands/reports';

/** Every command, in the order the help lists them. */
export const COMMANDS: readonly Command[] = [
  ...ACCOUNT_COMMANDS,
  ...REPORT_COMMANDS,
  ...DRAFT_COMMANDS,
  COMPLETION_COMMAND,
];

/** The command the words name (the longest match), and the words after it. */
export function findCommand(
  words: readonly string[],
): { command: Command; rest: string[] } | { group: string; known: Command[] } | null {
  for (const length of [2, 1]) {
    const head = words.slice(0, length);
    const command = COMMANDS.find(
      (c) => c.path.length === length && c.path.every((w, i) => w === head[i]),
    );
    if (command) return { command, rest: words.slice(length) };
  }
  const group = words[0];
  const known = COMMANDS.filter((c) => c.path.length === 2 && c.path[0] === group);
  return group && known.length ? { group, known } : null;
}

export function commandName(command: Command): string {
  return `bountydesk ${command.path.join(' ')}`;
}

/** A command's `--help`: usage, what it does, its options, an example. */
export function commandHelp(command: Command): string {
  const lines = [
    `Usage: ${commandName(command)}${command.args ? ` ${command.args}` : ''}`,
    '',
    command.summary,
  ];
  const options = [...command.details];
  if (command.json) options.push('--json           the documented JSON shape on stdout');
  options.push('-h, --help       this help');
  lines.push('', 'Options:', ...options.map((o) => `  ${o}`));
  lines.push('', 'Example:', `  ${command.example}`);
  return `${lines.join('\n')}\n`;
}

/** `bountydesk --help`. */
export function generalHelp(exitCodes: readonly [number, string][]): string {
  const width = Math.max(...COMMANDS.map((c) => c.path.join(' ').length));
  return [
    'Usage: bountydesk <command> [options]',
    '',
    "Bounty Desk from a terminal: the app's account, offline copy, outbox and checks.",
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.path.join(' ').padEnd(width)}  ${c.summary}`),
    '',
    'Every command takes --help. Results go to stdout, messages to stderr.',
    'BOUNTYDESK_USER_DATA (or --user-data <dir>) names another app data folder.',
    '',
    'Exit codes:',
    ...exitCodes.map(([code, meaning]) => `  ${code}  ${meaning}`),
    '',
  ].join('\n');
}
