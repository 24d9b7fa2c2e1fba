import { randomBytes } from '../support/random';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DraftView, EvidenceView, ReportDetailView } from '../../src/shared/bridge/views';
import {
  openSandbox,
  pickPrograms,
  writeKey,
  type Report,
  type SandboxClient,
} from '../support/sandbox-client';
import { EngineChild } from './child';
import { COMPLETE_DESCRIPTION } from './harness';
import { waitFor } from '../support/wait';

/**
 * kill -9 of the engine process while an upload is in flight: on restart the upload starts again
 * from the beginning under the same file id, and the server ends with exactly that one file.
 */
describe('engine crash safety: uploads in flight', () => {
  let sandbox: SandboxClient;
  let key: string;
  let programId: string;
  let dataDir: string;
  let child: EngineChild;

  beforeAll(async () => {
    sandbox = await openSandbox({ rateLimits: 'spec' });
    const account = await sandbox.newAccount({ email_verified: true, payments_status: 'ready' });
    key = writeKey(account);
    programId = pickPrograms(await sandbox.world()).open.id;
    dataDir = await mkdtemp(join(tmpdir(), 'engine-crash-'));
    ({ child } = await EngineChild.start({ dataDir }));
    await child.call('connect', { serverUrl: sandbox.url, apiKey: key });
  });
  afterAll(async () => {
    await sandbox.clearFaults();
    await child.call('signOut').catch(() => undefined);
    await child.stop();
    await sandbox.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** A saved draft, then (behind a server that waits `latencyMs` before reading) an upload. */
  async function draftWithUpload(
    size: number,
    latencyMs: number,
  ): Promise<{ reportId: string; file: EvidenceView }> {
    const draft = await child.call<DraftView>('createDraft', programId);
    await child.call('saveDraft', draft.reportId, {
      title: 'Path traversal in the export',
      asset: 'https://app.example.com/export',
      description: COMPLETE_DESCRIPTION,
      cvss_vector: '',
    });
    await child.call('drain', 20_000);
    await sandbox.control('DELETE', '/__sandbox/stats');
    await sandbox.faults({ rate: 1, latency_ms: latencyMs, seed: 9 });
    const path = join(dataDir, `capture-${size}.bin`);
    await writeFile(path, randomBytes(size));
    const [file] = await child.call<EvidenceView[]>('attachFiles', draft.reportId, [{ path }]);
    if (!file) throw new Error('no evidence');
    return { reportId: draft.reportId, file };
  }

  /** Until some bytes of the file have been handed to the socket, not all of them. */
  async function waitMidUpload(reportId: string): Promise<void> {
    await waitFor(
      'the upload to start',
      async () => (await child.call<ReportDetailView>('getReport', reportId)).evidence[0],
      (file) => file?.state === 'uploading' && file.sentBytes > 0,
      { everyMs: 2 },
    );
  }

  async function restartAndCheck(
    reportId: string,
    file: EvidenceView,
    carriedOut: boolean,
  ): Promise<void> {
    await child.kill();
    await sandbox.clearFaults();
    // The upload had left before the kill: the server counts it once it has ended there
    // (carried out from buffered bytes, or cut off mid-body).
    const route = 'PUT /api/reports/{report_id}/files/{file_id}';
    await waitFor(
      'an upload to reach the server',
      () => sandbox.control<{ by_route: Record<string, number> }>('GET', '/__sandbox/stats'),
      (stats) => stats.by_route[route] === 1,
      { everyMs: 50 },
    );
    const before = (await sandbox.api<Report>('GET', `/api/reports/${reportId}`, { token: key }))
      .body;
    expect(before.attachments[file.fileId]?.state === 'ready').toBe(carriedOut);
    const started = await EngineChild.start({ dataDir });
    child = started.child;
    expect(started.signedIn).toBe(true);
    await child.call('drain', 30_000);
    const report = (await sandbox.api<Report>('GET', `/api/reports/${reportId}`, { token: key }))
      .body;
    expect(Object.keys(report.attachments)).toEqual([file.fileId]);
    expect(report.attachments[file.fileId]?.state).toBe('ready');
    expect(report.attachments[file.fileId]?.sha256).toBe(file.sha256);
    const view = await child.call<ReportDetailView>('getReport', reportId);
    expect(view.evidence.map((e) => [e.fileId, e.state])).toEqual([[file.fileId, 'uploaded']]);
    expect(view.outbox.filter((e) => e.state !== 'done')).toEqual([]);
  }

  it('killed after the bytes left, before the answer: the server finishes it, the restart repeats it safely', async () => {
    // A slow server: the whole small body waits in socket buffers and arrives after the kill.
    const { reportId, file } = await draftWithUpload(64 * 1024, 1_000);
    await waitMidUpload(reportId);
    await restartAndCheck(reportId, file, true);
  });

  it('killed in the middle of the body: the upload starts again from the beginning under the same file id', async () => {
    // The server reads nothing for a while, so the client is still sending when it dies.
    const { reportId, file } = await draftWithUpload(9 * 1024 * 1024, 1_000);
    await waitMidUpload(reportId);
    const view = await child.call<ReportDetailView>('getReport', reportId);
    expect(view.evidence[0]?.sentBytes).toBeLessThan(file.size);
    await restartAndCheck(reportId, file, false);
  });
});
