// Static security scan of the built Electron code with Electronegativity (Doyensec).
//
//   npx tsx scripts/security-scan.ts [dir]     (dir defaults to out/, the electron-vite output)
//
// The scan is told the Electron version the app ships (from package.json) and leaves out
// AVAILABLE_SECURITY_FIXES_GLOBAL_CHECK, the one check that downloads Electron's release list.
// It fails on every finding of MEDIUM severity or above that docs/security.md does not list,
// with a justification, in its "Remaining scanner findings" table.
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const projectDir = fileURLToPath(new URL('..', import.meta.url));

/** Checks that need the network; excluded because CI runs offline. */
export const NETWORK_CHECKS = ['AvailableSecurityFixesGlobalCheck'];

export type Severity = 'INFORMATIONAL' | 'LOW' | 'MEDIUM' | 'HIGH';
const SEVERITY_RANK: Record<Severity, number> = { INFORMATIONAL: 0, LOW: 1, MEDIUM: 2, HIGH: 3 };

export interface Finding {
  readonly id: string;
  /** Relative to the scanned directory, with forward slashes; "N/A" for app-wide findings. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly severity: Severity;
  readonly confidence: string;
  readonly manualReview: boolean;
  readonly description: string;
}

export interface ScanResult {
  readonly electronVersion: string;
  readonly checksRun: number;
  readonly findings: Finding[];
  /** Files the scanner could not parse: a scan with errors has not looked at everything. */
  readonly errors: { file: string; message: string }[];
}

interface RawIssue {
  id: string;
  file: string;
  location: { line: number; column: number };
  severity: { name: string };
  confidence: { name: string };
  manualReview?: boolean;
  description: string;
}
interface RawResult {
  globalChecks: number;
  atomicChecks: number;
  errors: { file: string; message: string; tolerable: boolean }[];
  issues: RawIssue[];
}
type Run = (options: Record<string, unknown>, forCli?: boolean) => Promise<RawResult>;

/** The Electron version the installers ship: the installed one, else package.json's range. */
export function shippedElectronVersion(dir = projectDir): string {
  const installed = join(dir, 'node_modules', 'electron', 'package.json');
  if (existsSync(installed)) {
    return (JSON.parse(readFileSync(installed, 'utf8')) as { version: string }).version;
  }
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    devDependencies?: Record<string, string>;
  };
  const version = /\d+\.\d+\.\d+/.exec(pkg.devDependencies?.electron ?? '')?.[0];
  if (version === undefined) throw new Error('package.json has no electron devDependency');
  return version;
}

export function isMediumOrAbove(finding: Finding): boolean {
  return SEVERITY_RANK[finding.severity] >= SEVERITY_RANK.MEDIUM;
}

export async function scan(
  dir: string,
  electronVersion = shippedElectronVersion(),
): Promise<ScanResult> {
  if (!existsSync(dir))
    throw new Error(`${dir} does not exist: build the app first (npm run build)`);
  const run = require('@doyensec/electronegativity') as Run;
  const raw = await run({
    input: resolve(dir),
    customScan: [],
    excludeFromScan: NETWORK_CHECKS,
    isRelative: true,
    electronVersionOverride: electronVersion,
    parserPlugins: [],
  });
  return {
    electronVersion,
    checksRun: raw.globalChecks + raw.atomicChecks,
    errors: raw.errors
      .filter((error) => !error.tolerable)
      .map(({ file, message }) => ({ file, message })),
    findings: raw.issues.map((issue) => ({
      id: issue.id,
      file: issue.file.replaceAll('\\', '/'),
      line: issue.location.line,
      column: issue.location.column,
      severity: issue.severity.name as Severity,
      confidence: issue.confidence.name,
      manualReview: issue.manualReview === true,
      description: issue.description,
    })),
  };
}

export interface Justification {
  readonly id: string;
  readonly file: string;
  /** How many findings of this check in this file the justification covers. */
  readonly count: number;
  readonly reason: string;
}

/**
 * Reads the "Remaining scanner findings" table of docs/security.md:
 * `| CHECK_ID | file in out/ (or N/A) | count | justification |`. The count keeps a
 * justification from covering a new occurrence of the same check in the same bundle.
 */
export function readJustifications(markdown: string): Justification[] {
  const section = /^##+ Remaining scanner findings\s*$([\s\S]*?)(?=^##? |(?![\s\S]))/m.exec(
    markdown,
  );
  if (!section?.[1]) return [];
  const rows: Justification[] = [];
  for (const line of section[1].split('\n')) {
    if (!line.trim().startsWith('|')) continue;
    const cells = line
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((cell) => cell.trim().replaceAll('`', ''));
    const [id, file, count, reason] = cells;
    if (!id || !file || !count || !reason) continue;
    if (!/^[A-Z][A-Z0-9_]+$/.test(id) || !/^\d+$/.test(count)) continue; // header, separator
    rows.push({ id, file, count: Number(count), reason });
  }
  return rows;
}

/** MEDIUM+ findings not covered by a justification (with a real reason and a large enough count). */
export function unjustified(findings: Finding[], justifications: Justification[]): Finding[] {
  const failing: Finding[] = [];
  const seen = new Map<string, number>();
  for (const finding of findings) {
    if (!isMediumOrAbove(finding)) continue;
    const key = `${finding.id} ${finding.file}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    const covered = justifications.some(
      (j) =>
        j.id === finding.id && j.file === finding.file && j.reason.length >= 20 && n <= j.count,
    );
    if (!covered) failing.push(finding);
  }
  return failing;
}

export function formatFinding(finding: Finding): string {
  const where =
    finding.file === 'N/A' ? 'app-wide' : `${finding.file}:${finding.line}:${finding.column}`;
  return `${finding.severity} ${finding.id} (${finding.confidence}${finding.manualReview ? ', review' : ''}) ${where}: ${finding.description}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = resolve(process.argv[2] ?? join(projectDir, 'out'));
  const result = await scan(dir);
  const justifications = readJustifications(
    readFileSync(join(projectDir, 'docs', 'security.md'), 'utf8'),
  );
  const failing = unjustified(result.findings, justifications);
  console.log(
    `Electronegativity: ${result.checksRun} checks on ${dir}, Electron ${result.electronVersion}`,
  );
  for (const finding of result.findings) {
    const mark = failing.includes(finding)
      ? 'FAIL'
      : isMediumOrAbove(finding)
        ? 'justified'
        : 'info';
    console.log(`  [${mark}] ${formatFinding(finding)}`);
  }
  for (const error of result.errors) console.log(`  [ERROR] ${error.file}: ${error.message}`);
  if (failing.length > 0 || result.errors.length > 0) {
    console.error(
      `${failing.length} unjustified finding(s) of MEDIUM or above, ${result.errors.length} parse error(s). ` +
        'Fix them, or justify each in docs/security.md under "Remaining scanner findings".',
    );
    process.exitCode = 1;
  } else {
    console.log('No unjustified finding of MEDIUM severity or above.');
  }
}
