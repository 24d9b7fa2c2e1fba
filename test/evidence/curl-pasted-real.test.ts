import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readHttpEvidence } from '../../src/engine/evidence/http-import';
import { detectHttpEvidence } from '../../src/shared/evidence/http-detect';

/**
 * curlconverter's own test commands (SOURCES.md): 108 files as its users paste them, several
 * with more than one command, pipes, redirections, comments and here-documents. Every curl
 * command must become a request or be named in a message; no command is dropped in silence.
 */
const commands = JSON.parse(
  readFileSync(join(__dirname, '../fixtures/real/curl/curlconverter-commands.json'), 'utf8'),
) as Record<string, string>;

/** The curl commands a person sees in the file: lines that start one (after a pipe too). */
function typedCommands(text: string): number {
  const joined = text.replace(/\\\r?\n/g, ' ');
  return joined.split('\n').reduce((n, line) => {
    if (/^\s*#/.test(line)) return n;
    return n + [...line.matchAll(/(?:^|[|;&]\s*)curl\s/g)].length;
  }, 0);
}

describe("curlconverter's test commands, pasted", () => {
  it('reads every curl command of every file, or says what it could not', () => {
    let typed = 0;
    let requests = 0;
    let files = 0;
    let read = 0;
    const silent: string[] = [];
    const refused: string[] = [];
    for (const [name, text] of Object.entries(commands)) {
      files++;
      const count = typedCommands(text);
      typed += count;
      expect([name, detectHttpEvidence(text)]).toEqual([name, 'curl']);
      const result = readHttpEvidence(text);
      if (!result) {
        silent.push(name);
        continue;
      }
      if ('error' in result) {
        // Not read, but said: the paste is kept with this message.
        refused.push(`${name}: ${result.error}`);
        continue;
      }
      read++;
      // Each command gives at least one request (a command with several URLs gives more).
      const commandsRead = new Set(result.exchanges.map((e) => e.request)).size;
      requests += commandsRead;
      if (commandsRead < count) silent.push(name);
    }
    console.log(
      `curlconverter commands: files read ${read}/${files}, curl commands ${typed}, requests ${requests}\n` +
        `  refused with a message (${refused.length}):\n    ${refused.join('\n    ')}\n` +
        `  dropped silently: ${silent.length}`,
    );
    expect(silent).toEqual([]);
    expect(read).toBeGreaterThanOrEqual(100);
  });

  it('a file of three commands with a comment and a redirection gives three requests', () => {
    const result = readHttpEvidence(commands['multiple_commands.sh'] ?? '');
    if (!result || !('exchanges' in result)) throw new Error(JSON.stringify(result));
    expect(result.exchanges.map((e) => e.request.startLine)).toEqual([
      'GET / HTTP/1.1',
      'GET /second HTTP/1.1',
      'PUT /third HTTP/1.1',
    ]);
  });

  it('pipelines: each curl of `echo foo | curl …` chains is a request, echo is its input', () => {
    const result = readHttpEvidence(commands['pipelines.sh'] ?? '');
    if (!result || !('exchanges' in result)) throw new Error(JSON.stringify(result));
    expect(result.exchanges).toHaveLength(5);
  });
});
