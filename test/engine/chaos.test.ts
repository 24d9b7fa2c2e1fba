import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DraftContent, DraftView, EvidenceView } from '../../src/shared/bridge/views';
import { descriptionTemplate, insertFileLink, removeFileLinks } from '../../src/shared/rules';
import { startSandbox } from '../../src/sandbox';
import {
  SandboxClient,
  pickPrograms,
  writeKey,
  type MessageList,
  type Report,
  type ReportPage,
} from '../support/sandbox-client';
import { EngineChild } from './child';
import { COMPLETE_DESCRIPTION } from './harness';

/**
 * The chaos test of the engine issue: hundreds of random user operations against the sandbox with
 * 20% injected faults (429, 503, 500, dropped connections half of them after the server acted,
 * latency), while the engine process is killed with SIGKILL at random moments and started again.
 * The test keeps what the user asked for; at the end the server must hold exactly that.
 *
 * Deterministic for a seed: the operations and kill points come from a seeded PRNG and the model
 * alone (waits are bounded, never skipped). CHAOS_SEED overrides the seed.
 */
const SEED = Number(process.env.CHAOS_SEED ?? 7_2024);
const OPERATIONS = 500;
const RESTARTS = 12;
const ACTIVE = new Set(['triaging', 'needs_info', 'paused']);
const FINAL = new Set(['accepted', 'rejected', 'duplicate', 'insufficient_info']);
const VECTORS = [
  '',
  'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N',
  'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
  'CVSS:3.1/AV:L/AC:H/PR:H/UI:R/S:U/C:L/I:N/A:N',
];

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface FileModel {
  name: string;
  sha256: string;
}

interface ReportModel {
  id: string;
  status: string;
  content: DraftContent;
  files: Map<string, FileModel>;
  /** Content and files frozen by the submit. */
  submitted: { content: DraftContent; files: FileModel[] } | null;
  messages: { body: string; files: FileModel[] }[];
  /** A withdraw is queued: the active slot is free only once the engine has sent it. */
  withdrawQueued: boolean;
}

type OpKind = 'create' | 'edit' | 'attach' | 'remove' | 'submit' | 'message' | 'withdraw' | 'act';

const sortFiles = (files: FileModel[]): FileModel[] =>
  [...files].sort((a, b) => a.name.localeCompare(b.name) || a.sha256.localeCompare(b.sha256));

describe('engine chaos: random operations, 20% faults, kill -9 restarts', () => {
  let sandbox: SandboxClient;
  let key: string;
  let dataDir: string;
  let programId: string;
  let child: EngineChild;
  const random = mulberry32(SEED);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const reports = new Map<string, ReportModel>();
  const figures = { operations: 0, restarts: 0, acts: 0, messages: 0, files: 0, submits: 0 };
  let counter = 0;
  /** What happened, for the failure report: operation, report, resulting intended status. */
  const trace: string[] = [];

  const start = async (): Promise<void> => {
    ({ child } = await EngineChild.start({
      dataDir,
      outboxConcurrency: 4,
      budgetLimit: 100_000,
      afterActionMs: 1_500,
    }));
  };

  beforeAll(async () => {
    // Rate limits off here: the injected 429s exercise the same path, and the sandbox's real
    // 120/min would make 500 operations take minutes (the focused tests run with them on).
    // A killed upload can leave its file `uploading` until the server's file body time runs out
    // (the engine waits it out): 5 s instead of 120 s keeps the run short.
    const started = await startSandbox({
      port: 0,
      host: '127.0.0.1',
      agent: 'manual',
      rateLimits: 'off',
      fileBodyTimeoutMs: 5_000,
    });
    sandbox = new SandboxClient(started.url.replace(/\/$/, ''), () => started.close());
    const account = await sandbox.newAccount({ email_verified: true, payments_status: 'ready' });
    key = writeKey(account);
    programId = pickPrograms(await sandbox.world()).open.id;
    dataDir = await mkdtemp(join(tmpdir(), 'engine-chaos-'));
    await start();
    await child.call('connect', { serverUrl: sandbox.url, apiKey: key });
  });

  afterAll(async () => {
    await child?.call('signOut').catch(() => undefined);
    await child?.stop();
    await sandbox?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const live = (r: ReportModel) => r.status !== 'withdrawn' && !FINAL.has(r.status);
  const drafts = () => [...reports.values()].filter((r) => r.status === 'draft');
  const submittedOpen = () =>
    [...reports.values()].filter((r) => r.status !== 'draft' && live(r) && !r.withdrawQueued);
  const slotsHeld = () =>
    [...reports.values()].filter((r) => ACTIVE.has(r.status) || r.withdrawQueued).length;

  /** Waits (bounded) until the engine has sent every queued write of a report. */
  const settle = async (reportId: string): Promise<void> => {
    const deadline = Date.now() + 60_000;
    while ((await child.call<number>('unsent', reportId)) > 0) {
      if (Date.now() > deadline) {
        const open = (await child.call<{ reportId: string }[]>('outbox')).filter(
          (e) => e.reportId === reportId,
        );
        throw new Error(`report ${reportId} did not settle: ${JSON.stringify(open)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  const newFile = async (extension = 'txt'): Promise<{ path: string } & FileModel> => {
    const n = ++counter;
    const size = 1 + Math.floor(random() * 40_000);
    const bytes = Buffer.alloc(Math.ceil(size / 4) * 4);
    for (let i = 0; i < bytes.length; i += 4) bytes.writeUInt32LE((random() * 2 ** 32) >>> 0, i);
    const name = `evidence-${n}.${extension}`;
    const path = join(dataDir, name);
    await writeFile(path, bytes.subarray(0, size));
    return {
      path,
      name,
      sha256: createHash('sha256').update(bytes.subarray(0, size)).digest('hex'),
    };
  };

  const choose = (): OpKind => {
    const options: [OpKind, number][] = [];
    const d = drafts();
    if (d.length < 6) options.push(['create', d.length === 0 ? 10 : 2]);
    if (d.length > 0) {
      options.push(['edit', 6], ['withdraw', 0.3]);
      if (d.some((r) => r.files.size < 5)) options.push(['attach', 3]);
      if (d.some((r) => r.files.size > 0)) options.push(['remove', 2]);
      if (slotsHeld() < 5 || [...reports.values()].some((r) => r.withdrawQueued)) {
        options.push(['submit', 2]);
      }
    }
    const open = submittedOpen();
    if (open.length > 0) options.push(['message', 4], ['act', 1.5], ['withdraw', 0.7]);
    const total = options.reduce((sum, [, w]) => sum + w, 0);
    let at = random() * total;
    for (const [kind, weight] of options) {
      at -= weight;
      if (at < 0) return kind;
    }
    return options[0]?.[0] ?? 'create';
  };

  let lastReport = '';
  const touch = (r: ReportModel): ReportModel => {
    lastReport = r.id;
    return r;
  };

  async function operate(kind: OpKind): Promise<void> {
    const n = ++counter;
    switch (kind) {
      case 'create': {
        const draft = await child.call<DraftView>('createDraft', programId);
        expect(draft.content.description).toBe(descriptionTemplate());
        const content: DraftContent = {
          title: `Finding ${n}`,
          asset: `https://app${n}.example.com/`,
          description: `${COMPLETE_DESCRIPTION}\nMarker: ${n}\n`,
          cvss_vector: pick(VECTORS),
        };
        await child.call('saveDraft', draft.reportId, content);
        lastReport = draft.reportId;
        reports.set(draft.reportId, {
          id: draft.reportId,
          status: 'draft',
          content,
          files: new Map(),
          submitted: null,
          messages: [],
          withdrawQueued: false,
        });
        return;
      }
      case 'edit': {
        const r = touch(pick(drafts()));
        const field = pick(['title', 'asset', 'description', 'cvss_vector'] as const);
        const content = { ...r.content };
        if (field === 'title') content.title = `Finding ${n} (edited)`;
        if (field === 'asset') content.asset = `https://edited${n}.example.com/`;
        if (field === 'cvss_vector') content.cvss_vector = pick(VECTORS);
        if (field === 'description') {
          content.description = content.description.replace(/Marker: .*/, `Marker: ${n}`);
        }
        await child.call('saveDraft', r.id, content);
        r.content = content;
        return;
      }
      case 'attach': {
        const r = touch(pick(drafts().filter((d) => d.files.size < 5)));
        const file = await newFile();
        const link = random() < 0.5;
        const [added] = await child.call<EvidenceView[]>('attachFiles', r.id, [
          // At the end: a link in front of a heading would break the template (incomplete).
          { path: file.path, ...(link ? { insertAt: r.content.description.length } : {}) },
        ]);
        if (!added) throw new Error('attachFiles returned nothing');
        expect(added.sha256).toBe(file.sha256);
        r.files.set(added.fileId, { name: file.name, sha256: file.sha256 });
        if (link) {
          r.content = {
            ...r.content,
            description: insertFileLink(r.content.description, r.content.description.length, {
              name: file.name,
              reportId: r.id,
              fileId: added.fileId,
            }),
          };
        }
        figures.files++;
        return;
      }
      case 'remove': {
        const r = touch(pick(drafts().filter((d) => d.files.size > 0)));
        const fileId = pick([...r.files.keys()]);
        await child.call('removeFile', r.id, fileId);
        r.files.delete(fileId);
        r.content = { ...r.content, description: removeFileLinks(r.content.description, fileId) };
        return;
      }
      case 'submit': {
        // A queued withdraw frees its slot only once sent: wait for those first.
        for (const w of [...reports.values()].filter((x) => x.withdrawQueued)) {
          await settle(w.id);
          w.withdrawQueued = false;
        }
        if (slotsHeld() >= 5) return;
        const r = touch(pick(drafts()));
        await child.call('submit', r.id);
        r.status = 'triaging';
        r.submitted = { content: { ...r.content }, files: [...r.files.values()] };
        figures.submits++;
        return;
      }
      case 'message': {
        const r = touch(pick(submittedOpen()));
        const attach = r.messages.length < 6 ? Math.floor(random() * 3) : 0;
        const files: ({ path: string } & FileModel)[] = [];
        for (let i = 0; i < attach; i++) files.push(await newFile('log'));
        const body = random() < 0.15 && attach > 0 ? '' : `Reply ${n}: more detail.`;
        await child.call('postMessage', r.id, { body, filePaths: files.map((f) => f.path) });
        r.messages.push({ body, files: files.map(({ name, sha256 }) => ({ name, sha256 })) });
        if (r.status === 'needs_info') r.status = 'triaging';
        figures.messages++;
        figures.files += files.length;
        return;
      }
      case 'withdraw': {
        const r = touch(pick([...drafts(), ...submittedOpen()]));
        await child.call('withdraw', r.id);
        r.withdrawQueued = ACTIVE.has(r.status);
        r.status = 'withdrawn';
        return;
      }
      case 'act': {
        const r = touch(pick(submittedOpen()));
        // The team acts on what the server holds: the user's queued writes go first.
        await settle(r.id);
        const decisions = [
          ['founder', 'accepted'],
          ['founder', 'rejected'],
        ] as const;
        // Back into an active status only from an active one: taking a free slot here could race
        // with a submit the engine has not sent yet (the sandbox's team may exceed the limit).
        const [actor, status] = ACTIVE.has(r.status)
          ? pick([
              ['agent', 'needs_info'],
              ['agent', 'needs_info'],
              ['agent', 'human_review'],
              ['agent', 'paused'],
              ...decisions,
            ] as const)
          : pick(decisions);
        await sandbox.act(r.id, { actor, status, message: `The ${actor} says ${status} (${n}).` });
        r.status = status;
        figures.acts++;
        return;
      }
    }
  }

  it(`keeps exactly the intended state on the server (seed ${SEED})`, async () => {
    const began = Date.now();
    try {
      await sandbox.faults({
        rate: 0.2,
        statuses: [429, 503, 500],
        reset_connection: true,
        latency_ms: 120,
        seed: SEED,
      });
      const killAt = new Set(
        Array.from({ length: RESTARTS }, (_, i) =>
          Math.floor(((i + 1) * OPERATIONS) / (RESTARTS + 1) + (random() - 0.5) * 20),
        ),
      );
      for (let op = 0; op < OPERATIONS; op++) {
        const kind = choose();
        await operate(kind);
        figures.operations++;
        const r = reports.get(lastReport);
        trace.push(`${op} ${kind} ${lastReport} → ${r?.status} (held ${slotsHeld()})`);
        if (killAt.has(op)) {
          // A random moment while the engine is sending: no shutdown code runs.
          await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 250)));
          await child.kill();
          await start();
          figures.restarts++;
        }
      }

      await sandbox.clearFaults();
      await child.call('drain', 120_000);
      const parked = (
        await child.call<{ id: number; kind: string; reportId: string; lastError: unknown }[]>(
          'outbox',
        )
      ).filter((e) => (e as unknown as { state: string }).state === 'parked');
      expect(parked, 'no entry may give up').toEqual([]);
      await child.call('sync');

      // No report the user did not ask for, none twice.
      const ids: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await sandbox.api<ReportPage>('GET', '/api/reports', {
          token: key,
          query: { limit: 100, ...(cursor ? { cursor } : {}) },
        });
        ids.push(...page.body.reports.map((r) => r.id));
        cursor = page.body.next_cursor ?? undefined;
      } while (cursor);
      expect([...ids].sort()).toEqual([...reports.keys()].sort());

      for (const model of reports.values()) {
        const report = (
          await sandbox.api<Report>('GET', `/api/reports/${model.id}`, { token: key })
        ).body;
        const where = `report ${model.id}`;
        expect(report.status, where).toBe(model.status);
        const draftFiles = Object.values(report.attachments)
          .filter((a) => a.reply !== true)
          .map((a) => ({ name: a.name, sha256: a.sha256 }));
        if (model.status === 'draft') {
          expect(
            {
              title: report.title,
              asset: report.asset,
              description: report.description,
              cvss_vector: report.cvss_vector,
            },
            where,
          ).toEqual(model.content);
          expect(sortFiles(draftFiles), where).toEqual(sortFiles([...model.files.values()]));
        }
        if (model.submitted) {
          expect(report.submission?.content, where).toEqual(model.submitted.content);
          const frozen = Object.values(report.submission?.attachments ?? {}).map((a) => ({
            name: a.name,
            sha256: a.sha256,
          }));
          expect(sortFiles(frozen), where).toEqual(sortFiles(model.submitted.files));
        } else {
          expect(report.submission, where).toBeNull();
        }
        const thread = (
          await sandbox.api<MessageList>('GET', `/api/reports/${model.id}/messages`, {
            token: key,
          })
        ).body.messages.filter((m) => m.author === 'researcher');
        const sent = thread.map((m) => ({
          body: m.body,
          files: sortFiles(
            m.attachments.map((f) => ({
              name: f.name,
              sha256: report.attachments[f.id]?.sha256 ?? 'missing',
            })),
          ),
        }));
        expect(sent, `${where}: exactly one message per intended message`).toEqual(
          model.messages.map((m) => ({ body: m.body, files: sortFiles(m.files) })),
        );
        const strayMessageFiles = Object.values(report.attachments).filter(
          (a) => a.reply === true && !a.message_id,
        );
        expect(strayMessageFiles, where).toEqual([]);
      }
      const stats = await sandbox.control<{ by_status: Record<string, number>; requests: number }>(
        'GET',
        '/__sandbox/stats',
      );
      console.log(
        `chaos seed ${SEED}: ${figures.operations} operations (${figures.submits} submits, ` +
          `${figures.messages} messages, ${figures.files} files, ${figures.acts} team acts), ` +
          `${figures.restarts} kill -9 restarts, ${stats.requests} requests, faults seen: ` +
          `${stats.by_status['0'] ?? 0} dropped, ${stats.by_status['429'] ?? 0}×429, ` +
          `${stats.by_status['503'] ?? 0}×503, ${stats.by_status['500'] ?? 0}×500; ` +
          `${Math.round((Date.now() - began) / 1000)} s`,
      );
      expect(figures.restarts).toBeGreaterThanOrEqual(10);
      expect(figures.operations).toBeGreaterThanOrEqual(500);
    } catch (error) {
      console.error(`chaos test failed with seed ${SEED} (rerun with CHAOS_SEED=${SEED})`);
      console.error(trace.slice(-60).join('\n'));
      // Where the model and the server disagree on statuses (faults off to read them).
      await sandbox.clearFaults().catch(() => undefined);
      for (const model of reports.values()) {
        const res = await sandbox
          .api<Report>('GET', `/api/reports/${model.id}`, { token: key })
          .catch(() => null);
        const status = res?.status === 200 ? res.body.status : `HTTP ${res?.status}`;
        if (status !== model.status) {
          console.error(`  ${model.id}: intended ${model.status}, server ${status}`);
        }
      }
      console.error(child?.stderr.slice(-3000));
      throw error;
    }
  }, 240_000);
});
