import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_SCHEMAS } from '../../src/cli/json-schemas';
import { EXIT } from '../../src/cli/exit-codes';
import type { Report, MessageList } from '../../src/shared/api';
import { buildApp } from '../app/build';
import { COMPLETE_DESCRIPTION } from '../support/fixtures';
import { realFile } from '../support/real-corpus';
import { openWithResearcher, type SandboxClient } from '../support/sandbox-client';
import { cli, draftCreateArgs, json, type CliResult } from './run-cli';

/**
 * The built command (`out/main/cli.js`) in its own process against the sandbox, with the real
 * keychain (scripts/with-keyring.sh) and a data folder of its own; the app is not running, so
 * every run starts its own engine under the folder's lock.
 */
const ajv = new Ajv2020({ allErrors: true, strict: false });
let sandbox: SandboxClient;
let key: string;
let programId: string;
let userData: string;
let work: string;

function expectSchema(command: string, result: CliResult): unknown {
  const value = json(result);
  const schema = JSON_SCHEMAS[command];
  if (!schema) throw new Error(`no schema for ${command}`);
  const validate = ajv.compile(schema);
  expect(validate(value) ? [] : validate.errors, `${command} --json`).toEqual([]);
  return value;
}

async function serverReport(id: string): Promise<Report> {
  return (await sandbox.api<Report>('GET', `/api/reports/${id}`, { token: key })).body;
}

function exiftool(bytes: Buffer, name: string): Record<string, unknown> {
  const path = join(work, name);
  writeFileSync(path, bytes);
  const out = execFileSync('exiftool', ['-j', '-G1', '-a', path], { encoding: 'utf8' });
  return (JSON.parse(out) as Record<string, unknown>[])[0] ?? {};
}

beforeAll(async () => {
  await buildApp();
  const researcher = await openWithResearcher();
  sandbox = researcher.sandbox;
  key = researcher.key;
  programId = researcher.programs.open.id;
  userData = mkdtempSync(join(tmpdir(), 'bountydesk-cli-'));
  work = mkdtempSync(join(tmpdir(), 'bountydesk-cli-work-'));
}, 300_000);

afterAll(async () => {
  await sandbox?.close();
  rmSync(userData, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe('bountydesk, built, against the sandbox', () => {
  it('says usage (2) and not signed in (5) by exit code, messages on stderr only', async () => {
    const unknown = await cli(['frobnicate'], userData);
    expect(unknown.code).toBe(EXIT.usage);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('Unknown command "frobnicate"');
    const badOption = await cli(['report', 'list', '--colour'], userData);
    expect(badOption.code).toBe(EXIT.usage);
    expect(badOption.stderr).toContain("Unknown option '--colour'");
    const missing = await cli(['report', 'view'], userData);
    expect(missing.code).toBe(EXIT.usage);
    const badStatus = await cli(['report', 'list', '--status', 'open'], userData);
    expect(badStatus.code).toBe(EXIT.usage);
    expect(badStatus.stderr).toContain('--status: unknown status "open"');

    const status = await cli(['auth', 'status', '--json'], userData);
    expect(status.code).toBe(EXIT.notSignedIn);
    expect(expectSchema('auth status', status)).toEqual({ signedIn: false, account: null });
    const list = await cli(['report', 'list'], userData);
    expect(list.code).toBe(EXIT.notSignedIn);
    expect(list.stdout).toBe('');
    expect(list.stderr).toContain('bountydesk auth login');
    // The exit code follows the engine's code, printed for scripts beside the sentence.
    expect(list.stderr).toContain('(code: not_signed_in)');
  }, 120_000);

  it('signs in with a key on stdin; the key never shows in any output', async () => {
    // A key the server does not know: refused with the engine's field and code, never echoed.
    const wrong = `${key.slice(0, key.indexOf('_') + 1)}${'A'.repeat(43)}`;
    const refused = await cli(
      ['auth', 'login', '--server', sandbox.url, '--with-token'],
      userData,
      {
        stdin: `${wrong}\n`,
      },
    );
    expect(refused.code, refused.stderr).toBe(EXIT.notSignedIn);
    expect(refused.stderr).toContain('(field: apiKey, code: sign_in_failed)');
    expect(refused.stderr).toMatch(/^The API key is not accepted/);
    expect(refused.stdout + refused.stderr).not.toContain(wrong);
    const login = await cli(['auth', 'login', '--server', sandbox.url, '--with-token'], userData, {
      stdin: `${key}\n`,
    });
    expect(login.stderr).not.toContain(key);
    expect(login.code, login.stderr).toBe(EXIT.ok);
    const status = await cli(['status', '--json'], userData);
    expect(status.code).toBe(EXIT.ok);
    const view = expectSchema('status', status) as { account: { serverUrl: string } };
    expect(view.account.serverUrl).toBe(sandbox.url.replace(/\/$/, ''));
    expect(status.stdout + status.stderr).not.toContain(key);
    const synced = await cli(['sync', '--json'], userData);
    expect(synced.code, synced.stderr).toBe(EXIT.ok);
    expectSchema('sync', synced);
  }, 120_000);

  let reportId = '';

  it('a draft from a Markdown file with a photo and a HAR: GPS gone, cookie redacted, submitted', async () => {
    writeFileSync(join(work, 'photo.jpg'), realFile('images', 'exifr-issue-exifr-13.jpg'));
    const har = realFile('har', 'mitmproxy-chrome.har');
    writeFileSync(join(work, 'session.har'), har);
    const cookies = (
      JSON.parse(har.toString('utf8')) as {
        log: { entries: { request: { cookies: { value: string }[] } }[] };
      }
    ).log.entries
      .flatMap((e) => e.request.cookies.map((c) => c.value))
      .filter((v) => v.length >= 12);
    expect(cookies.length).toBeGreaterThan(0);
    expect(
      Object.keys(exiftool(realFile('images', 'exifr-issue-exifr-13.jpg'), 'before.jpg')).some(
        (k) => k.startsWith('GPS:'),
      ),
    ).toBe(true);
    writeFileSync(
      join(work, 'finding.md'),
      `---\nprogram: ${programId}\ntitle: Open redirect on login\nasset: https://app.example.com/\ncvss_vector: ""\n---\n${COMPLETE_DESCRIPTION}`,
    );
    const made = await cli(
      [...draftCreateArgs('finding.md', ['photo.jpg', 'session.har']), '--json'],
      userData,
      { cwd: work },
    );
    expect(made.code, made.stderr).toBe(EXIT.ok);
    const created = expectSchema('draft create', made) as {
      reportId: string;
      attached: { as: string; format?: string; redacted?: number }[];
    };
    reportId = created.reportId;
    expect(created.attached.map((a) => a.as)).toEqual(['file', 'http']);
    expect(created.attached[1]?.format).toBe('har');
    expect(created.attached[1]?.redacted).toBeGreaterThan(0);

    const view = await cli(['report', 'view', reportId, '--json'], userData);
    const detail = expectSchema('report view', view) as {
      description: string;
      evidence: { name: string }[];
    };
    expect(detail.description).toContain('[REDACTED:');
    for (const value of cookies) expect(detail.description).not.toContain(value);
    expect(detail.evidence.map((e) => e.name)).toContain('photo.jpg');

    const submitted = await cli(['report', 'submit', reportId, '--json'], userData);
    expect(submitted.code, submitted.stderr).toBe(EXIT.ok);
    expect(expectSchema('report submit', submitted)).toMatchObject({
      outcome: 'sent',
      findings: [],
    });
    const sent = await serverReport(reportId);
    expect(sent.status).toBe('triaging');
    for (const value of cookies) expect(sent.description).not.toContain(value);
    const photo = Object.entries(sent.attachments).find(([, a]) => a.name === 'photo.jpg');
    if (!photo) throw new Error('the photo did not reach the server');
    const res = await fetch(new URL(`/api/reports/${reportId}/files/${photo[0]}`, sandbox.url), {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    const tags = exiftool(bytes, 'after.jpg');
    expect(tags['File:FileType']).toBe('JPEG');
    expect(Object.keys(tags).filter((k) => k.startsWith('GPS:'))).toEqual([]);
  }, 180_000);

  it('a question in the inbox, answered with a file; read commands print their schemas', async () => {
    await sandbox.askForInformation(reportId, 'Which browser did you use?');
    const synced = await cli(['sync'], userData);
    expect(synced.code, synced.stderr).toBe(EXIT.ok);
    const inbox = await cli(['inbox', '--json'], userData);
    const items = (expectSchema('inbox', inbox) as { items: { reportId: string }[] }).items;
    expect(items.map((i) => i.reportId)).toContain(reportId);

    writeFileSync(join(work, 'browser.txt'), 'Firefox 128 on Debian 12\n');
    const reply = await cli(
      ['reply', reportId, '--body', 'Firefox; the version is attached.', '--attach', 'browser.txt'],
      userData,
      { cwd: work },
    );
    expect(reply.code, reply.stderr).toBe(EXIT.ok);
    const messages = (
      await sandbox.api<MessageList>('GET', `/api/reports/${reportId}/messages`, {
        token: key,
      })
    ).body.messages.filter((m) => m.author === 'researcher');
    expect(messages).toHaveLength(1);
    expect(messages[0]?.attachments.map((f) => f.name)).toEqual(['browser.txt']);

    const thread = await cli(['report', 'view', reportId, '--thread', '--json'], userData);
    expectSchema('report view', thread);
    const list = await cli(
      ['report', 'list', '--status', 'triaging,needs_info', '--json'],
      userData,
    );
    const rows = (expectSchema('report list', list) as { reports: { id: string }[] }).reports;
    expect(rows.map((r) => r.id)).toContain(reportId);
    const found = await cli(['report', 'search', 'redirect', '--json'], userData);
    expectSchema('report search', found);
    expectSchema('payouts', await cli(['payouts', '--json'], userData));
    const exported = await cli(
      ['export', reportId, '--dir', join(work, 'out'), '--json'],
      userData,
    );
    expect(exported.code, exported.stderr).toBe(EXIT.ok);
    expectSchema('export', exported);
    const md = await cli(['report', 'view', reportId, '--thread'], userData);
    expect(md.stdout).toMatch(/^---\n/);
    expect(md.stdout).toContain('Which browser did you use?');
  }, 180_000);

  it('refuses a submit while credentials are found (4), names them by kind and place, never the value; --redact sends', async () => {
    const jwt =
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
    const file = `---\nprogram: ${programId}\ntitle: Token in logs\nasset: https://app.example.com/\ncvss_vector: ""\n---\n${COMPLETE_DESCRIPTION}\nAuthorization: Bearer ${jwt}\n`;
    const made = await cli(['draft', 'create', '--file', '-'], userData, { stdin: file });
    expect(made.code, made.stderr).toBe(EXIT.ok);
    const id = made.stdout.trim();
    const refused = await cli(['report', 'submit', id, '--json'], userData);
    expect(refused.code).toBe(EXIT.refused);
    const body = expectSchema('report submit', refused) as {
      findings: { kind: string; where: string }[];
    };
    expect(body.findings.length).toBeGreaterThan(0);
    expect(body.findings[0]?.where).toMatch(/Description, line \d+/);
    expect(refused.stdout + refused.stderr).not.toContain(jwt);
    expect(refused.stdout + refused.stderr).not.toContain(jwt.slice(0, 12));
    expect((await serverReport(id).catch(() => null))?.status ?? 'draft').toBe('draft');
    const redacted = await cli(['report', 'submit', id, '--redact'], userData);
    expect(redacted.code, redacted.stderr).toBe(EXIT.ok);
    const sent = await serverReport(id);
    expect(sent.status).toBe('triaging');
    expect(sent.description).not.toContain(jwt);
    expect(sent.description).toContain('[REDACTED:');
  }, 180_000);

  it('a file with problems is refused (4) by file and line, and nothing is made', async () => {
    writeFileSync(join(work, 'broken.md'), `---\ntitle: [unclosed\n---\nbody\n`);
    const before = await cli(['report', 'list', '--status', 'draft', '--json'], userData);
    const result = await cli(['import', 'broken.md'], userData, { cwd: work });
    expect(result.code).toBe(EXIT.refused);
    expect(result.stderr).toMatch(/broken\.md:\d+: /);
    const after = await cli(['report', 'list', '--status', 'draft', '--json'], userData);
    expect((json(after) as { total: number }).total).toBe(
      (json(before) as { total: number }).total,
    );
  }, 120_000);

  it('offline, a reply is queued (3), and sent once by the next run', async () => {
    const made = await cli(['draft', 'create', '--file', '-'], userData, {
      stdin: `---\nprogram: ${programId}\ntitle: Queued offline\nasset: https://app.example.com/\ncvss_vector: ""\n---\n${COMPLETE_DESCRIPTION}`,
    });
    const id = made.stdout.trim();
    expect((await cli(['report', 'submit', id], userData)).code).toBe(EXIT.ok);
    await sandbox.faults({ rate: 1, reset_connection: true });
    const queued = await cli(
      ['reply', id, '--body', 'Sent while offline.', '--wait', '20'],
      userData,
    );
    expect(queued.stderr).toContain('queued');
    expect(queued.code).toBe(EXIT.queued);
    const status = json(await cli(['status', '--json'], userData)) as {
      queued: { unsent: number };
    };
    expect(status.queued.unsent).toBeGreaterThan(0);
    await sandbox.clearFaults();
    const next = await cli(['sync'], userData);
    expect(next.code, next.stderr).toBe(EXIT.ok);
    // The next run's engine sends the queued reply; a few more runs never send it again.
    for (let i = 0; i < 20; i++) {
      const s = json(await cli(['status', '--json'], userData)) as { queued: { unsent: number } };
      if (s.queued.unsent === 0) break;
    }
    await cli(['sync'], userData);
    const messages = (
      await sandbox.api<MessageList>('GET', `/api/reports/${id}/messages`, {
        token: key,
      })
    ).body.messages.filter((m) => m.body === 'Sent while offline.');
    expect(messages).toHaveLength(1);
  }, 240_000);
});
