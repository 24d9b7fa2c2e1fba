import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXIT_MEANINGS } from '../../src/cli/exit-codes';
import { JSON_SCHEMAS } from '../../src/cli/json-schemas';
import { COMMANDS, commandHelp } from '../../src/cli/table';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe("the README's command table", () => {
  it("shows every command's --help exactly as the command prints it (npx tsx scripts/cli-readme.ts)", () => {
    const stale = COMMANDS.filter((c) => !README.includes(commandHelp(c).trimEnd()));
    expect(stale.map((c) => c.path.join(' '))).toEqual([]);
    for (const [code, meaning] of EXIT_MEANINGS) {
      expect(README).toContain(`| ${code}`);
      expect(README).toContain(meaning);
    }
  });

  it('every command that reads has a --json schema, and every schema a command', () => {
    const reads = COMMANDS.filter((c) => c.json).map((c) => c.path.join(' '));
    expect(reads.sort()).toEqual(Object.keys(JSON_SCHEMAS).sort());
  });

  it('every command has a help with an example that names it', () => {
    for (const c of COMMANDS)
      expect(c.example, c.path.join(' ')).toContain(`bountydesk ${c.path.join(' ')}`);
  });
});
