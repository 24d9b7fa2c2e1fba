#!/usr/bin/env node
/**
 * Turns Nosey Parker's published rules (crates/noseyparker/data/default/builtin/rules/*.yml,
 * Apache-2.0) into the JSON the credential scan loads as data:
 * `node scripts/noseyparker-rules.mjs <rules dir> <commit> <out.json> [<examples.json>]`.
 * Patterns stay in Nosey Parker's (Rust regex) syntax; src/engine/evidence/secret-scan/noseyparker.ts
 * compiles them for JS. The rules' own examples go to a separate file, for tests only.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const [dir, commit, out, examplesOut] = process.argv.slice(2);
if (!dir || !commit || !out) {
  console.error(
    'usage: node scripts/noseyparker-rules.mjs <rules dir> <commit> <out.json> [<examples.json>]',
  );
  process.exit(1);
}
const rules = [];
const examples = [];
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.yml'))
  .sort()) {
  const doc = parse(readFileSync(join(dir, file), 'utf8'));
  for (const r of doc?.rules ?? []) {
    rules.push({ id: r.id, name: r.name, pattern: r.pattern, categories: r.categories ?? [] });
    for (const text of r.examples ?? []) examples.push({ rule: r.id, text, secret: true });
    for (const text of r.negative_examples ?? [])
      examples.push({ rule: r.id, text, secret: false });
  }
}
const source = {
  repository: 'https://github.com/praetorian-inc/noseyparker',
  path: 'crates/noseyparker/data/default/builtin/rules/*.yml',
  commit,
  licence: 'Apache-2.0, Copyright 2022 Praetorian Security, Inc.',
};
writeFileSync(out, `${JSON.stringify({ source, rules }, null, 1)}\n`);
if (examplesOut) writeFileSync(examplesOut, `${JSON.stringify({ source, examples }, null, 1)}\n`);
console.log(`${rules.length} rules, ${examples.length} examples`);
