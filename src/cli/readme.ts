import { EXIT_MEANINGS } from './exit-codes';
import { COMMANDS, commandHelp } from './table';

export const START = '<!-- cli-help:start (npx tsx scripts/cli-readme.ts) -->';
export const END = '<!-- cli-help:end -->';

/** The README's table of commands and every command's `--help`, as the command prints it. */
export function cliReadmeSection(): string {
  const rows = COMMANDS.map(
    (c) => `| \`bountydesk ${c.path.join(' ')}\` | ${c.summary} | ${c.json ? 'yes' : ''} |`,
  );
  const codes = EXIT_MEANINGS.map(([code, meaning]) => `| ${code} | ${meaning} |`);
  const helps = COMMANDS.map(
    (c) =>
      `<details><summary><code>bountydesk ${c.path.join(' ')} --help</code></summary>\n\n\`\`\`text\n${commandHelp(c).trimEnd()}\n\`\`\`\n\n</details>`,
  );
  return [
    START,
    '',
    '| Command | What it does | `--json` |',
    '| --- | --- | --- |',
    ...rows,
    '',
    '| Exit code | Meaning |',
    '| --- | --- |',
    ...codes,
    '',
    'A failure prints its sentence on stderr, then the input at fault and the error’s code: ' +
      '`(field: apiKey, code: sign_in_failed)`. Scripts switch on the exit code or the code, never ' +
      'on the sentence.',
    '',
    ...helps.flatMap((h) => [h, '']),
    END,
  ].join('\n');
}

export function replaceCliSection(readme: string, section: string): string {
  const from = readme.indexOf(START);
  const to = readme.indexOf(END);
  if (from < 0 || to < 0) throw new Error('README.md has no cli-help markers');
  return readme.slice(0, from) + section + readme.slice(to + END.length);
}
