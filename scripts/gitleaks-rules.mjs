#!/usr/bin/env node
/**
 * Turns gitleaks' published rule file (config/gitleaks.toml, MIT) into the JSON the credential
 * scan loads as data: `node scripts/gitleaks-rules.mjs <gitleaks.toml> <commit>`. Regexes stay in
 * gitleaks' (Go RE2) syntax; src/engine/evidence/secret-scan/gitleaks.ts compiles them for JS. Run
 * it again on a newer gitleaks.toml to take up new vendor rules.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'smol-toml';

const [file, commit] = process.argv.slice(2);
if (!file || !commit) {
  console.error('usage: node scripts/gitleaks-rules.mjs <gitleaks.toml> <commit>');
  process.exit(1);
}
const toml = parse(readFileSync(file, 'utf8'));
const pickAllowlist = (a) => ({
  condition: a.condition ?? 'OR',
  regexTarget: a.regexTarget ?? 'secret',
  regexes: a.regexes ?? [],
  stopwords: a.stopwords ?? [],
});
const rules = toml.rules
  // Rules that only match file paths say nothing about a text.
  .filter((r) => typeof r.regex === 'string')
  .map((r) => ({
    id: r.id,
    description: r.description,
    regex: r.regex,
    ...(r.secretGroup ? { secretGroup: r.secretGroup } : {}),
    ...(r.entropy ? { entropy: r.entropy } : {}),
    keywords: r.keywords ?? [],
    allowlists: (r.allowlists ?? []).map(pickAllowlist),
  }));
const out = {
  source: {
    repository: 'https://github.com/gitleaks/gitleaks',
    path: 'config/gitleaks.toml',
    commit,
    licence: 'MIT, Copyright (c) 2019 Zachary Rice',
  },
  allowlist: pickAllowlist(toml.allowlist ?? {}),
  rules,
};
writeFileSync(
  new URL('../src/engine/evidence/secret-scan/gitleaks-rules.json', import.meta.url),
  `${JSON.stringify(out, null, 1)}\n`,
);
console.log(`${rules.length} rules written`);
