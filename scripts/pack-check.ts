// Packs the app into app.asar exactly the way `electron-builder` does, without Electron and
// without network, so a test can inspect what an installer would ship.
//
// It drives electron-builder's own pipeline (app-builder-lib, the version in the lockfile):
// the configuration is loaded and schema-validated from electron-builder.yml, the app files are
// selected by its `files` matchers (with the builder's default exclusions), the production
// dependencies are collected by its npm collector and filtered by its node-module rules, and
// the archive is written by its AsarPackager through @electron/asar, honouring `asarUnpack`.
// Only the Electron-specific steps are left out: downloading Electron, rebuilding native
// modules for Electron's ABI (it would break the Node-ABI test setup), flipping fuses, signing.
// Those pieces are internal to app-builder-lib: if an electron-builder upgrade moves them, this
// script fails loudly rather than checking something else.
//
//   npx tsx scripts/pack-check.ts [appDir]   (appDir defaults to the project; needs out/ built)
import { createRequire } from 'node:module';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getRawHeader } from '@electron/asar';
import type { Configuration } from 'electron-builder';

const require = createRequire(import.meta.url);

export const projectDir = fileURLToPath(new URL('..', import.meta.url));

interface FileMatcher {
  readonly patterns: string[];
  createFilter(): (file: string, stat: unknown) => boolean;
}
interface FileSet {
  readonly files: string[];
}
type MacroExpander = (pattern: string) => string;

interface BuilderInternals {
  getConfig(
    projectDir: string,
    configPath: string | null,
    fromOptions: null,
  ): Promise<Configuration>;
  validateConfiguration(config: Configuration, debugLogger: unknown): Promise<void>;
  getMainFileMatchers(
    appDir: string,
    destination: string,
    macroExpander: MacroExpander,
    platformSpecificBuildOptions: object,
    platformPackager: unknown,
    outDir: string,
    isElectronCompile: boolean,
  ): FileMatcher[];
  getNodeModuleFileMatcher(
    appDir: string,
    destination: string,
    macroExpander: MacroExpander,
    platformSpecificBuildOptions: object,
    packager: unknown,
  ): FileMatcher;
  getFileMatchers(
    config: Configuration,
    name: 'asarUnpack',
    destination: string,
    options: object,
  ): FileMatcher[] | null;
  computeFileSets(
    matchers: FileMatcher[],
    transformer: null,
    platformPackager: unknown,
    isElectronCompile: boolean,
  ): Promise<FileSet[]>;
  computeNodeModuleFileSets(platformPackager: unknown, matcher: FileMatcher): Promise<FileSet[]>;
  AsarPackager: new (
    packager: unknown,
    config: {
      defaultDestination: string;
      resourcePath: string;
      options: object;
      unpackPattern: ((file: string, stat: unknown) => boolean) | undefined;
    },
  ) => { pack(fileSets: FileSet[]): Promise<void> };
  DebugLogger: new (isEnabled: boolean) => { isEnabled: boolean };
  TmpDir: new (debugName: string) => { cleanup(): Promise<void> };
  Platform: { LINUX: unknown };
}

function builderInternals(): BuilderInternals {
  const lib = (path: string): Record<string, unknown> =>
    require(`app-builder-lib/out/${path}`) as Record<string, unknown>;
  const internals: Record<string, unknown> = {
    ...lib('util/config/config.js'),
    ...lib('fileMatcher.js'),
    ...lib('util/appFileCopier.js'),
    ...lib('asar/asarUtil.js'),
    Platform: lib('core.js').Platform,
    DebugLogger: (require('builder-util') as Record<string, unknown>).DebugLogger,
    TmpDir: (require('temp-file') as Record<string, unknown>).TmpDir,
  };
  const names: (keyof BuilderInternals)[] = [
    'getConfig',
    'validateConfiguration',
    'getMainFileMatchers',
    'getNodeModuleFileMatcher',
    'getFileMatchers',
    'computeFileSets',
    'computeNodeModuleFileSets',
    'AsarPackager',
    'DebugLogger',
    'TmpDir',
    'Platform',
  ];
  const missing = names.filter((name) => internals[name] == null);
  if (missing.length > 0) {
    throw new Error(`app-builder-lib no longer provides ${missing.join(', ')}: update pack-check`);
  }
  return internals as unknown as BuilderInternals;
}

/** electron-builder.yml as electron-builder loads it (merged with package.json, validated). */
export async function loadBuilderConfig(dir = projectDir): Promise<Configuration> {
  const b = builderInternals();
  const config = await b.getConfig(dir, null, null);
  await b.validateConfiguration(config, new b.DebugLogger(false));
  return config;
}

export interface PackedApp {
  /** The app.asar written by the builder's packager. */
  readonly asarPath: string;
  /** Every file in the archive, as a posix path relative to the archive root. */
  readonly files: string[];
  /** The files stored beside the archive in app.asar.unpacked. */
  readonly unpacked: string[];
  readonly cleanup: () => Promise<void>;
}

interface HeaderNode {
  files?: Record<string, HeaderNode>;
  unpacked?: boolean;
  link?: string;
}

function listHeader(node: HeaderNode, prefix: string, files: string[], unpacked: string[]): void {
  for (const [name, child] of Object.entries(node.files ?? {})) {
    const path = prefix === '' ? name : `${prefix}/${name}`;
    if (child.files) listHeader(child, path, files, unpacked);
    else {
      files.push(path);
      if (child.unpacked === true) unpacked.push(path);
    }
  }
}

/**
 * Packs `appDir` (which holds package.json and the electron-vite output in out/) into a temp
 * app.asar. Production dependencies are collected from `projectDir`'s node_modules.
 */
export async function packLikeBuilder(appDir = projectDir): Promise<PackedApp> {
  const b = builderInternals();
  const config = await loadBuilderConfig(projectDir);
  const metadata = JSON.parse(await readFile(join(projectDir, 'package.json'), 'utf8')) as {
    name: string;
    dependencies?: Record<string, string>;
  };
  const work = await mkdtemp(join(tmpdir(), 'bounty-desk-pack-'));
  const tempDirManager = new b.TmpDir('pack-check');
  const debugLogger = new b.DebugLogger(false);
  const resourcePath = join(work, 'resources');
  const defaultDestination = join(resourcePath, 'app');
  const outDir = resolve(projectDir, config.directories?.output ?? 'dist');
  const buildResourcesDir = config.directories?.buildResources ?? 'build';
  const macroExpander: MacroExpander = (pattern) => pattern;
  // The subset of electron-builder's Packager / PlatformPackager the file pipeline reads.
  const info = {
    projectDir,
    appDir,
    buildResourcesDir,
    config,
    debugLogger,
    tempDirManager,
    isPrepackedAppAsar: false,
    areNodeModulesHandledExternally: false,
    metadata,
    originalMetadata: metadata,
    nodePackageName: metadata.name,
    appInfo: { type: 'module' },
    getWorkspaceRoot: () => Promise.resolve(undefined),
    getPackageManager: () => Promise.resolve('npm'),
  };
  const platformPackager = { info, config, platform: b.Platform.LINUX };
  try {
    const mainMatchers = b.getMainFileMatchers(
      appDir,
      defaultDestination,
      macroExpander,
      {},
      platformPackager,
      outDir,
      false,
    );
    const appFileSets = await b.computeFileSets(mainMatchers, null, platformPackager, false);
    const moduleMatcher = b.getNodeModuleFileMatcher(
      appDir,
      defaultDestination,
      macroExpander,
      {},
      info,
    );
    const moduleFileSets = await b.computeNodeModuleFileSets(platformPackager, moduleMatcher);
    const fileSets = [...appFileSets, ...moduleFileSets].filter((set) => set.files.length > 0);
    const unpack = b.getFileMatchers(config, 'asarUnpack', defaultDestination, {
      macroExpander,
      customBuildOptions: {},
      globalOutDir: outDir,
      defaultSrc: appDir,
    });
    const asarOptions = typeof config.asar === 'object' && config.asar !== null ? config.asar : {};
    await new b.AsarPackager(platformPackager, {
      defaultDestination,
      resourcePath,
      options: asarOptions,
      unpackPattern: unpack?.[0]?.createFilter(),
    }).pack(fileSets);
  } catch (error) {
    await rm(work, { recursive: true, force: true });
    throw error;
  } finally {
    await tempDirManager.cleanup();
  }
  const asarPath = join(resourcePath, 'app.asar');
  const files: string[] = [];
  const unpacked: string[] = [];
  listHeader(getRawHeader(asarPath).header as HeaderNode, '', files, unpacked);
  return {
    asarPath,
    files: files.sort(),
    unpacked: unpacked.sort(),
    cleanup: () => rm(work, { recursive: true, force: true }),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const packed = await packLikeBuilder(resolve(process.argv[2] ?? projectDir));
  const outside = packed.files.filter((file) => !file.startsWith('node_modules/'));
  const modules = new Set(
    packed.files
      .filter((file) => file.startsWith('node_modules/'))
      .map((file) => file.split('/').slice(1, file.split('/')[1]?.startsWith('@') ? 3 : 2))
      .map((parts) => parts.join('/')),
  );
  console.log(outside.join('\n'));
  console.log(`node_modules: ${modules.size} top-level packages, ${packed.files.length} files`);
  console.log(`unpacked: ${packed.unpacked.join(', ')}`);
  await packed.cleanup();
}
