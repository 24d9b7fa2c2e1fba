/**
 * Writes the command line's table and each command's `--help` into README.md (between the
 * `cli-help` markers). test/cli/readme.test.ts fails when the README is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cliReadmeSection, replaceCliSection } from '../src/cli/readme';

const file = new URL('../README.md', import.meta.url);
const text = readFileSync(file, 'utf8');
writeFileSync(file, replaceCliSection(text, cliReadmeSection()));
