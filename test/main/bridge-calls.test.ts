import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineCalls } from '../../src/engine/commands';
import { createBridgeCalls } from '../../src/main/bridge-calls';
import { FileTokens } from '../../src/main/file-tokens';
import { validateArgs } from '../../src/main/validate-args';
import {
  BRIDGE_CALLS,
  FORWARDED_CALLS,
  type BridgeCallName,
  type BridgeCalls,
} from '../../src/shared/bridge/contract';

/**
 * main forwards the page's calls to the engine process. A forwarder that names its parameters
 * once dropped one (`saveDraft`'s `basedOn`, and the other client's edit with it). Here every call
 * of the contract is made with every argument it declares, and what reaches the engine is
 * compared with what the page sent. Only the engine's side is recorded here: the calls main
 * answers itself are covered through the built app in test/app.
 */
const REPORT = '3f1c2a9e-8d4b-4c1e-9f2a-7b6c5d4e3f21';
const FILE = '0b4c7c1e-2f9a-4d3e-8a6b-5c4d3e2f1a0b';
const content = (title: string) => ({
  title,
  asset: 'https://app.example.com/',
  description: '## Steps to reproduce\n\nsee https://x.example/',
  cvss_vector: '',
});

/** Every argument of every call, as a page would send it (the type lists every call). */
function sampleArgs(tokens: string[]): { [K in BridgeCallName]: Parameters<BridgeCalls[K]> } {
  const [a = '', b = ''] = tokens;
  return {
    getAccount: [],
    connectSandbox: [],
    connect: [{ serverUrl: 'https://bugs.example.com', apiKey: `sbx_${'k'.repeat(43)}` }],
    signOut: [],
    startFresh: [],
    getStatus: [],
    syncNow: [],
    resyncEverything: [],
    listPrograms: [
      { asset: ['web'], reward: ['5k_10k'], updated: '7d', intake: ['open'], page: 2, limit: 12 },
    ],
    getProgram: ['acme-web'],
    listReports: [
      { status: ['draft', 'triaging'], search: 'xss', offset: 200, limit: 50, rowsFirst: true },
    ],
    countReports: [{ status: ['accepted'], program: 'acme-web', search: 'xss' }],
    getReport: [REPORT],
    peekReport: [REPORT],
    createDraft: ['acme-web'],
    saveDraft: [REPORT, content('typed'), content('based on')],
    resolveConflicts: [REPORT, { title: 'ours', description: { custom: 'both' } }],
    attachFiles: [REPORT, [{ file: a, insertAt: 42 }, { file: b }]],
    removeFile: [REPORT, FILE],
    getChecklist: [REPORT],
    submit: [REPORT],
    withdraw: [REPORT],
    postMessage: [REPORT, { body: 'Firefox 140', files: [b] }],
    markThreadRead: [REPORT],
    downloadFile: [REPORT, FILE],
    pickFiles: [],
    retryEntry: [7],
    discardEntry: [8],
    refreshPayments: [],
    sendVerificationEmail: [],
    openExternal: ['https://example.com/'],
    openWebsite: ['api-keys'],
    scanEvidence: [REPORT],
    redactFindings: [REPORT, ['description#0123abcd', 'file:x#89ef']],
    keepFinding: [REPORT, 'title#0123abcd', true],
    importHttpEvidence: [REPORT, { text: 'curl https://example.com', name: 'a.curl', insertAt: 3 }],
    getEvidenceImage: [REPORT, FILE],
    findSimilarReports: [REPORT],
    listPayouts: [],
    exportPayouts: [],
    exportReports: [[REPORT]],
    saveReportPdf: [REPORT],
    importReports: [{ files: [a] }],
    listTemplates: [],
    saveTemplate: [{ id: FILE, name: 'XSS', body: '{{asset}}', fromReportId: REPORT }],
    deleteTemplate: [FILE],
    exportTemplates: [],
    importTemplates: [{ pick: 'folder' }],
    startFromTemplate: ['acme-web', FILE, { title: 'XSS', asset: 'https://x.example/' }],
  };
}

describe('main forwards every argument of every call to the engine', () => {
  let dir: string;
  const files = new FileTokens();
  const paths: string[] = [];
  const tokens: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bridge-calls-'));
    for (const name of ['poc.txt', 'capture.har']) {
      const path = join(dir, name);
      await writeFile(path, name);
      paths.push(path);
      tokens.push((await files.register(path)).token);
    }
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function recordingEngine(): { seen: { name: string; args: unknown[] }[]; calls: BridgeCalls } {
    const seen: { name: string; args: unknown[] }[] = [];
    const record = (name: string, args: unknown[]): Promise<unknown> => {
      seen.push({ name, args });
      return Promise.resolve(name === 'getReport' ? null : undefined);
    };
    const engine = new Proxy({} as EngineCalls, {
      get:
        (_t, name) =>
        (...args: unknown[]) =>
          record(String(name), args),
    });
    const calls = createBridgeCalls({
      call: (name, args) => record(name, args),
      engine,
      sandbox: { connect: () => record('sandbox.connect', []) as never, forget: async () => {} },
      shell: { openExternal: async () => {} },
      dialog: {
        showSaveDialog: async () => ({ canceled: true }),
        showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
      },
      files,
      downloadsDir: dir,
      printToPDF: () =>
        Promise.reject(new Error('nothing is printed when the dialog is cancelled')),
    });
    return { seen, calls };
  }

  it('the sample covers the contract and is valid for main’s own argument checks', () => {
    const sample = sampleArgs(tokens);
    expect(Object.keys(sample).sort()).toEqual([...BRIDGE_CALLS].sort());
    for (const name of BRIDGE_CALLS) expect(() => validateArgs(name, sample[name])).not.toThrow();
  });

  it.each(FORWARDED_CALLS)('%s arrives with its arguments unchanged', async (name) => {
    const { seen, calls } = recordingEngine();
    const args = sampleArgs(tokens)[name];
    await (calls[name] as (...a: unknown[]) => Promise<unknown>)(...args);
    expect(seen).toEqual([{ name, args: JSON.parse(JSON.stringify(args)) }]);
  });

  it('attachFiles and postMessage arrive with the paths behind their tokens, nothing else changed', async () => {
    const { seen, calls } = recordingEngine();
    const sample = sampleArgs(tokens);
    await calls.attachFiles(...sample.attachFiles);
    await calls.postMessage(...sample.postMessage);
    expect(seen).toEqual([
      {
        name: 'attachFiles',
        args: [REPORT, [{ path: paths[0], insertAt: 42 }, { path: paths[1] }]],
      },
      { name: 'postMessage', args: [REPORT, { body: 'Firefox 140', filePaths: [paths[1]] }] },
    ]);
  });

  it('exportPayouts asks where to save, and the engine writes there', async () => {
    const { seen, calls } = recordingEngine();
    expect(await calls.exportPayouts()).toBeNull(); // the dialog above is cancelled
    expect(seen).toEqual([]);
  });

  it('connect arrives with the server and the key, marked as not the sandbox', async () => {
    const { seen, calls } = recordingEngine();
    const [input] = sampleArgs(tokens).connect;
    await calls.connect(input);
    expect(seen[0]).toEqual({ name: 'connect', args: [{ ...input, sandbox: false }] });
  });
});
