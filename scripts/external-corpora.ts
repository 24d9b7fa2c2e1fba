/**
 * The HTTP import and the scope guard measured against public corpora kept outside the project:
 * every HTTP test case of a curl checkout's `tests/data` (test/fixtures/real keeps a
 * selection of 535) and every scope line of a bounty-targets-data checkout (the fixture keeps a
 * sample of 963). Either path may be a work tree or a bare git directory (its HEAD is read).
 *
 *   npx tsx scripts/external-corpora.ts --curl <curl/curl> --targets <arkadiyt/bounty-targets-data>
 *
 * Prints found/total figures; nothing is asserted (the tests hold the floors for the fixtures).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractTargets, matchAsset, parseScope } from '../src/shared/scope/scope';
import {
  differenceKind,
  runCurlCase,
  type CurlCase,
  type DifferenceKind,
} from '../test/support/curl-tests';

interface Corpus {
  commit: string;
  list(folder: string): string[];
  read(path: string): string;
}

function openCorpus(dir: string): Corpus {
  const bare = !existsSync(join(dir, '.git')) && existsSync(join(dir, 'HEAD'));
  const git = (...args: string[]): string =>
    execFileSync('git', ['--git-dir', bare ? dir : join(dir, '.git'), ...args], {
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    });
  return {
    commit: git('rev-parse', 'HEAD').trim(),
    list: (folder) =>
      bare
        ? git('ls-tree', '--name-only', `HEAD:${folder}`).split('\n').filter(Boolean)
        : readdirSync(join(dir, folder)),
    read: (path) => (bare ? git('show', `HEAD:${path}`) : readFileSync(join(dir, path), 'utf8')),
  };
}

function section(xml: string, tag: string): string | null {
  const m = new RegExp(`<${tag}(?:\\s[^>]*)?>\\n?([\\s\\S]*?)</${tag}>`).exec(xml);
  return m ? (m[1] ?? '') : null;
}

/** curl's test cases that talk plain HTTP to the test server, each with its recorded request. */
function curlCases(corpus: Corpus): CurlCase[] {
  return corpus
    .list('tests/data')
    .filter((name) => /^test\d+$/.test(name))
    .flatMap((name) => {
      const xml = corpus.read(`tests/data/${name}`);
      const client = section(xml, 'client') ?? '';
      const command = section(client, 'command');
      const protocol = section(section(xml, 'verify') ?? '', 'protocol');
      if (section(client, 'server')?.trim() !== 'http' || !command || !protocol) return [];
      const files: Record<string, string> = {};
      for (const m of client.matchAll(
        /<file\d?\b([^>]*)name="([^"]+)"([^>]*)>\n?([\s\S]*?)<\/file\d?>/g,
      ))
        // nonewline="yes": the file ends without the newline before </file>.
        files[m[2] ?? ''] = /nonewline="yes"/.test(`${m[1]}${m[3]}`)
          ? (m[4] ?? '').replace(/\n$/, '')
          : (m[4] ?? '');
      // curl's <strip> patterns leave random parts (multipart boundaries…) out of the comparison.
      const strip = (section(section(xml, 'verify') ?? '', 'strip') ?? '')
        .split('\n')
        .filter((line) => line.trim() !== '');
      const tool = section(client, 'tool')?.trim();
      const notTheTool = tool
        ? `libtest ${tool}`
        : section(client, 'stdin') !== null
          ? 'stdin'
          : '';
      return [
        {
          test: Number(name.slice(4)),
          command: command.trim(),
          files,
          protocol,
          strip,
          ...(notTheTool ? { notTheTool } : {}),
        },
      ];
    });
}

function measureCurl(corpus: Corpus): void {
  const cases = curlCases(corpus);
  let parsed = 0;
  let identical = 0;
  const different = new Map<DifferenceKind, number[]>();
  for (const c of cases) {
    const result = runCurlCase(c);
    if (result !== 'unparsed') parsed++;
    if (result === 'identical') identical++;
    if (result === 'different') {
      const kind = differenceKind(c);
      different.set(kind, [...(different.get(kind) ?? []), c.test]);
    }
  }
  console.log(
    `curl ${corpus.commit.slice(0, 12)} tests/data, ${cases.length} plain-HTTP cases with a recorded request: ` +
      `parsed ${parsed}/${cases.length}, identical to curl's request ${identical}/${cases.length}`,
  );
  const shown = Number(process.env.SHOW ?? 40);
  for (const [kind, tests] of [...different.entries()].sort(([a], [b]) => a.localeCompare(b)))
    console.log(
      `  different, ${kind}: ${tests.length} (#${tests.slice(0, shown).join(' #')}${tests.length > shown ? ' …' : ''})`,
    );
}

interface Program {
  platform: string;
  name: string;
  scope: string[];
  exclusions: string[];
}

type Target = { target?: string; endpoint?: string; asset_identifier?: string };

function programs(corpus: Corpus): Program[] {
  return ['bugcrowd', 'intigriti', 'yeswehack', 'federacy', 'hackerone'].flatMap((platform) => {
    let data: { name: string; targets: { in_scope: Target[]; out_of_scope: Target[] } }[];
    try {
      data = JSON.parse(corpus.read(`data/${platform}_data.json`)) as typeof data;
    } catch {
      console.log(`scope: data/${platform}_data.json not in this copy, left out`);
      return [];
    }
    const line = (t: Target): string => (t.target ?? t.endpoint ?? t.asset_identifier ?? '').trim();
    return data.map((p) => ({
      platform,
      name: p.name,
      scope: p.targets.in_scope.map(line).filter(Boolean),
      exclusions: p.targets.out_of_scope.map(line).filter(Boolean),
    }));
  });
}

/**
 * For every program, its whole scope and exclusions as the guard reads them. Found: a line names
 * a host, address or app the guard reads. The line itself typed as the asset is in scope (or
 * excluded by a more specific out-of-scope line of the same program); an out-of-scope line typed
 * as the asset is excluded. A line that throws is counted and named.
 */
function measureScope(corpus: Corpus): void {
  const list = programs(corpus);
  let lines = 0;
  let read = 0;
  let own = 0;
  let ownIn = 0;
  let outLines = 0;
  let outExcluded = 0;
  const thrown: string[] = [];
  const misses: string[] = [];
  for (const p of list) {
    const md = (xs: string[]): string => xs.map((x) => `- ${x.replace(/\n/g, ' ')}`).join('\n');
    let rules;
    try {
      rules = parseScope(md(p.scope), md(p.exclusions));
    } catch (error) {
      thrown.push(`${p.platform} ${p.name}: ${String(error)}`);
      continue;
    }
    for (const line of p.scope) {
      lines++;
      if (extractTargets(line).length === 0) continue;
      read++;
      own++;
      const status = matchAsset(rules, line).status;
      if (status === 'in-scope' || status === 'excluded') ownIn++;
      else misses.push(`${p.platform} "${p.name}": in-scope line "${line}" → ${status}`);
    }
    for (const line of p.exclusions) {
      if (extractTargets(line).length === 0) continue;
      outLines++;
      const status = matchAsset(rules, line).status;
      if (status === 'excluded') outExcluded++;
      else misses.push(`${p.platform} "${p.name}": out-of-scope line "${line}" → ${status}`);
    }
  }
  const pct = (a: number, b: number): string => `${((100 * a) / Math.max(1, b)).toFixed(1)}%`;
  console.log(
    `bounty-targets-data ${corpus.commit.slice(0, 12)}, ${list.length} programs: ` +
      `lines naming a target the guard reads ${read}/${lines} (${pct(read, lines)}); ` +
      `an in-scope line typed as the asset is in scope ${ownIn}/${own} (${pct(ownIn, own)}); ` +
      `an out-of-scope line typed as the asset is excluded ${outExcluded}/${outLines} (${pct(outExcluded, outLines)}); ` +
      `programs whose scope threw ${thrown.length}`,
  );
  for (const t of thrown) console.log(`threw: ${t}`);
  const shown = misses.slice(0, Number(process.env.SHOW ?? 40));
  if (shown.length)
    console.log(`first ${shown.length} of ${misses.length} misses:\n  ${shown.join('\n  ')}`);
}

const args = process.argv.slice(2);
const arg = (name: string): string | undefined => args[args.indexOf(`--${name}`) + 1];
if (!args.includes('--curl') && !args.includes('--targets')) {
  console.error('usage: tsx scripts/external-corpora.ts --curl <dir> --targets <dir>');
  process.exit(2);
}
const curl = args.includes('--curl') ? arg('curl') : undefined;
const targets = args.includes('--targets') ? arg('targets') : undefined;
if (curl) measureCurl(openCorpus(curl));
if (targets) measureScope(openCorpus(targets));
