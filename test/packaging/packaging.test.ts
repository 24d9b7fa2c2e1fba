// Packaging checks that run without Electron and without network: the app is built once with
// electron-vite into a private staging directory, then (1) packed into app.asar by
// electron-builder's own file pipeline, (2) scanned with Electronegativity, and (3) the
// electron-builder configuration is checked for fuses, targets, names and unpacking.
import { execFile } from 'node:child_process';
import {
  copyFile,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { extractFile } from '@electron/asar';
import type { Configuration } from 'electron-builder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadBuilderConfig,
  packLikeBuilder,
  projectDir,
  type PackedApp,
} from '../../scripts/pack-check';
import {
  formatFinding,
  readJustifications,
  scan,
  shippedElectronVersion,
  unjustified,
  type ScanResult,
} from '../../scripts/security-scan';

const run = promisify(execFile);

interface PackageJson {
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}
const pkg = JSON.parse(await readFile(join(projectDir, 'package.json'), 'utf8')) as PackageJson;

let stage: string;
let packed: PackedApp;

beforeAll(async () => {
  // A private app directory, laid out like the project: package.json, the electron-vite
  // output in out/, and the project's other top-level entries (sources, tests, docs) linked in
  // so that the `files` patterns have to keep them out. Building into it (not into the shared
  // out/) keeps this suite independent of other suites that build.
  stage = await mkdtemp(join(tmpdir(), 'bounty-desk-app-'));
  await copyFile(join(projectDir, 'package.json'), join(stage, 'package.json'));
  for (const entry of ['src', 'test', 'docs', 'scripts', 'build', 'resources', 'README.md']) {
    await symlink(join(projectDir, entry), join(stage, entry));
  }
  await run('npx', ['electron-vite', 'build', '--outDir', join(stage, 'out')], {
    cwd: projectDir,
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
  });
  packed = await packLikeBuilder(stage);
}, 180_000);

afterAll(async () => {
  await packed?.cleanup();
  if (stage) await rm(stage, { recursive: true, force: true });
});

/** The keychain binding's prebuilt package: npm installs only the one of this OS and arch. */
const installedBindings = await readdir(join(projectDir, 'node_modules/@napi-rs'));
const keyringBinding = `@napi-rs/${installedBindings.find((name) => name.startsWith('keyring-'))}`;
function topLevelPackage(file: string): string | null {
  const parts = file.split('/');
  if (parts[0] !== 'node_modules' || !parts[1]) return null;
  return parts[1].startsWith('@') ? `${parts[1]}/${parts[2] ?? ''}` : parts[1];
}

describe('app.asar as electron-builder packs it', () => {
  it('holds the main, preload and renderer bundles and package.json', () => {
    expect(packed.files).toContain('out/main/index.js');
    expect(packed.files).toContain('out/preload/index.cjs');
    expect(packed.files).toContain('out/renderer/index.html');
    expect(packed.files).toContain('package.json');
  });

  it('holds every asset the renderer page references', async () => {
    const html = extractFile(packed.asarPath, 'out/renderer/index.html').toString('utf8');
    const refs = [...html.matchAll(/(?:src|href)="\.?\/?([^"]+)"/g)].map((m) => m[1] ?? '');
    const local = refs.filter((ref) => !/^[a-z]+:/i.test(ref));
    expect(local.length).toBeGreaterThan(0);
    for (const ref of local) expect(packed.files).toContain(`out/renderer/${ref}`);
    const archived = JSON.parse(extractFile(packed.asarPath, 'package.json').toString('utf8')) as {
      main: string;
    };
    expect(packed.files).toContain(archived.main);
  });

  it('holds every file of the built renderer, the chunks it imports later too', async () => {
    // The report screen and the Markdown renderer are chunks the page imports when they are
    // first shown: no tag of index.html names them.
    const built = (
      await readdir(join(stage, 'out', 'renderer'), { recursive: true, withFileTypes: true })
    )
      .filter((entry) => entry.isFile())
      .map((entry) => relative(stage, join(entry.parentPath, entry.name)).replaceAll('\\', '/'));
    expect(built.filter((file) => file.endsWith('.js')).length).toBeGreaterThan(1);
    expect(built.filter((file) => !packed.files.includes(file))).toEqual([]);
  });

  it("keeps the page's strict CSP: scripts from the app's own files only, nothing unsafe", () => {
    const html = extractFile(packed.asarPath, 'out/renderer/index.html').toString('utf8');
    const csp = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] ?? '';
    const directives = new Map(
      csp.split(';').map((part) => {
        const [name = '', ...values] = part.trim().split(/\s+/);
        return [name, values.join(' ')] as const;
      }),
    );
    expect(directives.get('default-src')).toBe("'none'");
    expect(directives.get('script-src')).toBe("'self'");
    expect(csp).not.toMatch(/unsafe-|\*|https?:/);
    // What a <meta> policy cannot hold (Chromium ignores it, and logs an error at every start).
    expect(['frame-ancestors', 'report-uri', 'sandbox'].filter((d) => directives.has(d))).toEqual(
      [],
    );
  });

  it("compiles the open report's code whole as it loads: its chunks open with V8's compile hint", () => {
    // electron.vite.config.ts (`COMPILED_WHOLE`); the page's first chunk stays lazily compiled.
    const chunk = (name: string): string =>
      extractFile(packed.asarPath, `out/renderer/assets/${name}.js`).toString('utf8');
    for (const name of ['ReportScreen', 'DraftEditor'])
      expect(chunk(name).split('\n')[0], name).toBe('//# allFunctionsCalledOnLoad');
    expect(chunk('index')).not.toContain('allFunctionsCalledOnLoad');
  });

  it('holds no source, test file, source map or project document', () => {
    const app = packed.files.filter((file) => !file.startsWith('node_modules/'));
    expect(app.filter((file) => !file.startsWith('out/') && file !== 'package.json')).toEqual([]);
    expect(packed.files.filter((file) => file.endsWith('.map'))).toEqual([]);
    expect(packed.files.filter((file) => /\.(?:ts|tsx|mts|cts)$/.test(file))).toEqual([]);
    expect(
      packed.files.filter(
        (file) =>
          /\.(?:test|spec)\.[cm]?[jt]sx?$/.test(file) ||
          /(?:^|\/)(?:test|tests|__tests__|__mocks__)\//.test(file),
      ),
    ).toEqual([]);
  });

  it('holds the production dependencies the main process loads, and no development dependency', async () => {
    const shipped = new Set(packed.files.map(topLevelPackage).filter((name) => name !== null));
    for (const name of ['better-sqlite3', '@napi-rs/keyring', keyringBinding])
      expect(shipped).toContain(name);
    // A devDependency may legitimately ship when a production package needs it too
    // (@types/mdast); the tools themselves must not.
    for (const tool of [
      'electron',
      'electron-builder',
      'electron-vite',
      'vite',
      'vitest',
      'typescript',
    ]) {
      expect(pkg.devDependencies).toHaveProperty([tool]);
      expect(shipped.has(tool)).toBe(false);
    }
    // Transitively too: npm's lockfile marks every package only development needs as `dev`.
    const lock = JSON.parse(await readFile(join(projectDir, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const packageDirs = new Set(packed.files.map(packageDir).filter((dir) => dir !== null));
    expect(packageDirs.size).toBeGreaterThan(2);
    const unknown = [...packageDirs].filter((dir) => !(dir in lock.packages));
    const dev = [...packageDirs].filter((dir) => lock.packages[dir]?.dev === true);
    expect({ unknown, dev }).toEqual({ unknown: [], dev: [] });
  });

  it('keeps the native addons outside the archive, in app.asar.unpacked', () => {
    const addons = packed.files.filter((file) => file.endsWith('.node'));
    expect(addons).toEqual(
      expect.arrayContaining([
        'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
        expect.stringMatching(
          new RegExp(`^node_modules/${keyringBinding}/keyring\\.[\\w-]+\\.node$`),
        ),
      ]),
    );
    for (const addon of addons) expect(packed.unpacked).toContain(addon);
  });
});

/** `node_modules/a/node_modules/@s/b/lib/x.js` → `node_modules/a/node_modules/@s/b`. */
function packageDir(file: string): string | null {
  const match = /^((?:node_modules\/(?:@[^/]+\/)?[^/]+\/)*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(
    file,
  );
  return match?.[1] ?? null;
}

describe('Electronegativity scan of the built code', () => {
  let result: ScanResult;

  beforeAll(async () => {
    result = await scan(join(stage, 'out'));
  }, 120_000);

  it('runs its checks against the shipped Electron version, offline', () => {
    expect(result.electronVersion).toMatch(/^45\.\d+\.\d+$/);
    expect(result.electronVersion).toBe(shippedElectronVersion());
    expect(result.checksRun).toBeGreaterThan(30);
    expect(result.errors).toEqual([]);
  });

  it('leaves no finding of medium severity or above without a justification in docs/security.md', async () => {
    const justifications = readJustifications(
      await readFile(join(projectDir, 'docs', 'security.md'), 'utf8'),
    );
    expect(unjustified(result.findings, justifications).map(formatFinding)).toEqual([]);
  });

  it('does report an insecure window, so a clean result means something', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bounty-desk-insecure-'));
    try {
      await mkdir(join(dir, 'main'));
      await writeFile(
        join(dir, 'main', 'index.js'),
        "const { BrowserWindow } = require('electron');\n" +
          'new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false } });\n',
      );
      const insecure = await scan(dir);
      const ids = unjustified(insecure.findings, []).map((finding) => finding.id);
      expect(ids).toEqual(
        expect.arrayContaining([
          'CONTEXT_ISOLATION_JS_CHECK',
          'SANDBOX_JS_CHECK',
          'LIMIT_NAVIGATION_GLOBAL_CHECK',
        ]),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('counts justifications: a second occurrence of a justified check fails', () => {
    const finding = {
      id: 'SANDBOX_JS_CHECK',
      file: 'main/index.js',
      line: 1,
      column: 1,
      severity: 'MEDIUM' as const,
      confidence: 'FIRM',
      manualReview: false,
      description: '',
    };
    const one = [{ id: finding.id, file: finding.file, count: 1, reason: 'x'.repeat(40) }];
    expect(unjustified([finding], one)).toEqual([]);
    expect(unjustified([finding, { ...finding, line: 9 }], one)).toHaveLength(1);
    expect(unjustified([finding], [{ ...finding, count: 1, reason: 'because' }])).toHaveLength(1);
  });
});

describe('electron-builder configuration', () => {
  let config: Configuration;

  beforeAll(async () => {
    config = await loadBuilderConfig(); // loaded and schema-validated by electron-builder
  });

  it('flips the fuses', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });

  function targets(platform: 'mac' | 'win' | 'linux'): Record<string, string[]> {
    const list = config[platform]?.target;
    const result: Record<string, string[]> = {};
    for (const target of Array.isArray(list) ? list : [list]) {
      if (typeof target !== 'object' || target === null)
        throw new Error(`${platform}: use {target, arch}`);
      const arch = target.arch;
      result[target.target] = (Array.isArray(arch) ? arch : [arch]).map(String).sort();
    }
    return result;
  }

  it('builds the installers each OS needs, for each architecture', () => {
    expect(targets('linux')).toEqual({ AppImage: ['x64'], deb: ['x64'], rpm: ['x64'] });
    expect(targets('mac')).toEqual({ dmg: ['arm64', 'x64'], zip: ['arm64', 'x64'] });
    expect(targets('win')).toEqual({ nsis: ['arm64', 'x64'] });
  });

  it('names every artifact with the version and the architecture', () => {
    const names = [config.artifactName, config.dmg?.artifactName, config.nsis?.artifactName];
    for (const name of names) {
      expect(name).toContain('${version}');
      expect(name).toContain('${arch}');
    }
    expect(config.appId).toMatch(/^[a-z]+(\.[a-z-]+)+$/);
    expect(config.productName).toBe('Bounty Desk');
  });

  it('unpacks native addons, rebuilds them for Electron, and signs macOS with the hardened runtime', async () => {
    const unpack = [config.asarUnpack ?? []].flat();
    expect(unpack).toContain('**/*.node');
    expect(config.asar).not.toBe(false);
    expect(config.npmRebuild).not.toBe(false);
    expect(config.mac?.hardenedRuntime).toBe(true);
    const entitlements = await readFile(join(projectDir, config.mac?.entitlements ?? ''), 'utf8');
    const keys = [...entitlements.matchAll(/<key>([^<]+)<\/key>/g)].map((m) => m[1]);
    expect(keys).toEqual(['com.apple.security.cs.allow-jit']);
    expect(config.mac?.notarize).not.toBe(false);
  });
});

describe('release workflow', () => {
  it('starts each OS’s packaged app with real Electron after packaging; no app fails there', async () => {
    const { parse } = await import('yaml');
    const text = await readFile(join(projectDir, '.github', 'workflows', 'release.yml'), 'utf8');
    const workflow = parse(text) as {
      jobs: Record<string, { steps: { name?: string; run?: string; if?: string }[] }>;
    };
    const [job] = Object.values(workflow.jobs);
    if (!job) throw new Error('no job');
    const runs = job.steps.map((step) => step.run ?? '');
    const dist = runs.findIndex((run) => run.includes('npm run dist -- --publish never'));
    const smoke = job.steps.findIndex((step) => step.run?.includes('npm run smoke -- --require'));
    expect(dist).toBeGreaterThanOrEqual(0);
    expect(smoke).toBeGreaterThan(dist);
    expect(job.steps[smoke]?.if).toBeUndefined();
    expect(runs[smoke]).toMatch(/xvfb-run -a npm run smoke -- --require/);
  });

  it('follows the README on each OS: npm ci, then npm start driven until the engine answers', async () => {
    const { parse } = await import('yaml');
    const text = await readFile(join(projectDir, '.github', 'workflows', 'release.yml'), 'utf8');
    const workflow = parse(text) as {
      jobs: Record<
        string,
        { strategy?: { matrix?: { os?: string[] } }; steps: { run?: string }[] }
      >;
    };
    const job = workflow.jobs['readme-start'];
    if (!job) throw new Error('no readme-start job');
    expect(job.strategy?.matrix?.os).toEqual(['ubuntu-latest', 'macos-latest', 'windows-latest']);
    const runs = job.steps.map((step) => step.run ?? '');
    const install = runs.findIndex((run) => run.trim() === 'npm ci');
    const start = runs.findIndex((run) => run.includes('scripts/smoke.ts --npm-start'));
    expect(install).toBeGreaterThanOrEqual(0);
    expect(start).toBeGreaterThan(install);
    expect(runs[start]).toMatch(
      /xvfb-run -a bash scripts\/with-keyring\.sh npx tsx scripts\/smoke\.ts --npm-start/,
    );
    expect(runs.join('\n')).not.toMatch(/libsecret|ELECTRON_SKIP_BINARY_DOWNLOAD/);
  });

  it('the smoke test without a packaged app is skipped, never passed, and fails when required', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'bounty-desk-no-dist-'));
    try {
      const env = { ...process.env, SMOKE_DIST: empty };
      const smoke = join(projectDir, 'scripts', 'smoke.ts');
      const skipped = await run(process.execPath, ['--import', 'tsx', smoke], { env });
      expect(skipped.stdout).toMatch(/^smoke: no packaged app at .*: skipped, not passed$/m);
      expect(skipped.stdout.trim().split('\n').at(-1)).toBe('0 passed, 0 failed, 1 skipped');
      const required = await run(process.execPath, ['--import', 'tsx', smoke, '--require'], {
        env,
      }).catch((error: unknown) => error as { code: number; stdout: string });
      expect(required).toMatchObject({ code: 1 });
      expect(required.stdout.trim().split('\n').at(-1)).toBe('0 passed, 1 failed');
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('builds and tests on the three OSes, uploads installers, publishes only behind the switch', async () => {
    const { parse } = await import('yaml');
    const text = await readFile(join(projectDir, '.github', 'workflows', 'release.yml'), 'utf8');
    const workflow = parse(text) as {
      jobs: Record<
        string,
        {
          strategy: { matrix: { include: { os: string }[] } };
          env: Record<string, string>;
          steps: { run?: string; uses?: string; if?: string; with?: Record<string, unknown> }[];
        }
      >;
    };
    const [job] = Object.values(workflow.jobs);
    if (!job) throw new Error('no job');
    expect(job.strategy.matrix.include.map((entry) => entry.os).sort()).toEqual([
      'macos-latest',
      'ubuntu-latest',
      'windows-latest',
    ]);
    const runs = job.steps.map((step) => step.run ?? step.uses ?? '');
    const order = ['npm ci', 'npm test', 'npm run dist -- --publish never'].map((cmd) =>
      runs.indexOf(cmd),
    );
    expect(order.every((index) => index >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(runs.some((run) => run.startsWith('actions/upload-artifact'))).toBe(true);
    expect(
      job.steps.find((step) => step.uses?.startsWith('actions/setup-node'))?.with,
    ).toMatchObject({ 'node-version': 22 });
    const publishing = job.steps.filter((step) => /--publish (always|onTag)/.test(step.run ?? ''));
    expect(publishing).toHaveLength(1);
    expect(publishing[0]?.if).toBe("env.PUBLISH == 'true'");
    expect(job.env.PUBLISH).toContain("startsWith(github.ref, 'refs/tags/v')");
    expect(job.env.PUBLISH).toContain("vars.PUBLISH_RELEASES == 'true'");
  });
});
