/**
 * The deterministic seeded world (see docs/sandbox.md): accounts `ada` (verified, payments ready,
 * invited to the private program), `ben` (e-mail not verified), `cy` (payments not started),
 * `dana` (reports in every status, one accepted with a payout); every account has a write and a
 * read key and a website-session token. Ids and secrets are the same in every run; times are
 * relative to the sandbox clock at seeding.
 */
import { createHash } from 'node:crypto';
import type { Attachment, ReportStatus } from '../api-types';
import { HOUR, isoOf, MINUTE } from '../clock';
import { stableUuid } from '../ids';
import { addAccount, addKey } from '../state/accounts';
import type { AccountSeed } from '../state/accounts';
import type { BlobStore } from '../state/blobs';
import { storagePathOf } from '../state/files';
import { act, emptyReport, setPayout, submitReport } from '../state/reports';
import type { ProgramRecord, ReportRecord } from '../state/types';
import type { World } from '../state/world';
import { seedPrograms } from './programs';

export const SEED_ACCOUNTS: AccountSeed[] = [
  { uid: 'ada', email: 'ada@sandbox.test', email_verified: true, payments_status: 'ready' },
  { uid: 'ben', email: 'ben@sandbox.test', email_verified: false, payments_status: 'not_started' },
  { uid: 'cy', email: 'cy@sandbox.test', email_verified: true, payments_status: 'not_started' },
  { uid: 'dana', email: 'dana@sandbox.test', email_verified: true, payments_status: 'ready' },
];

const DESCRIPTION = (what: string): string =>
  [
    '## Steps to reproduce',
    '',
    `1. Sign in and open the page affected by ${what}.`,
    '2. Send the request shown in the evidence.',
    '',
    '## Expected behavior',
    '',
    'The request is rejected.',
    '',
    '## Actual behavior',
    '',
    'The request succeeds.',
    '',
    '## Security impact',
    '',
    `An attacker can exploit ${what}.`,
    '',
  ].join('\n');

interface SeedReport {
  n: number;
  program: string;
  title: string;
  cvss: string;
  status: ReportStatus;
  file?: boolean;
  hoursAgo: number;
}

const DANA_REPORTS: SeedReport[] = [
  {
    n: 1,
    program: 'acme-web',
    title: 'Stored XSS in profile bio',
    cvss: '',
    status: 'draft',
    file: true,
    hoursAgo: 1,
  },
  {
    n: 2,
    program: 'acme-web',
    title: 'IDOR on invoice download',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N',
    status: 'triaging',
    file: true,
    hoursAgo: 2,
  },
  {
    n: 3,
    program: 'globex-api',
    title: 'Open redirect after login',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:L/I:L/A:N',
    status: 'needs_info',
    hoursAgo: 5,
  },
  {
    n: 4,
    program: 'initech-mobile',
    title: 'Token kept in shared preferences',
    cvss: 'CVSS:3.1/AV:L/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
    status: 'paused',
    file: true,
    hoursAgo: 8,
  },
  {
    n: 5,
    program: 'umbrella-cloud',
    title: 'SSRF in webhook tester',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:C/C:H/I:L/A:N',
    status: 'human_review',
    file: true,
    hoursAgo: 20,
  },
  {
    n: 6,
    program: 'acme-web',
    title: 'SQL injection in search',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
    status: 'accepted',
    file: true,
    hoursAgo: 72,
  },
  {
    n: 7,
    program: 'globex-api',
    title: 'Verbose error pages',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
    status: 'rejected',
    file: true,
    hoursAgo: 96,
  },
  {
    n: 8,
    program: 'acme-web',
    title: 'Reflected XSS in search',
    cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N',
    status: 'duplicate',
    file: true,
    hoursAgo: 120,
  },
  {
    n: 9,
    program: 'umbrella-cloud',
    title: 'Possible bucket listing',
    cvss: '',
    status: 'insufficient_info',
    hoursAgo: 150,
  },
  {
    n: 10,
    program: 'initech-mobile',
    title: 'Debug menu reachable',
    cvss: 'CVSS:3.1/AV:P/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
    status: 'withdrawn',
    hoursAgo: 200,
  },
];

const MESSAGES: Partial<Record<ReportStatus, [actor: 'agent' | 'founder', text: string]>> = {
  needs_info: ['agent', 'Please attach evidence (a screenshot or an HTTP log) and reply here.'],
  paused: ['agent', 'Triage is paused while the program team is away.'],
  human_review: ['agent', 'Reproduced; forwarded to the program team.'],
  accepted: ['founder', 'Accepted as critical severity. Thank you!'],
  rejected: ['founder', 'The impact is too low for this program.'],
  duplicate: ['founder', 'This was reported before.'],
  insufficient_info: ['founder', 'We could not reproduce this with the details given.'],
};

export async function seedWorld(world: World, blobs: BlobStore): Promise<void> {
  const now = world.clock.now();
  for (const p of seedPrograms(now)) world.programs.set(p.id, p);
  for (const seed of SEED_ACCOUNTS) {
    addAccount(world, seed);
    addKey(world, seed.uid, {
      scope: 'write',
      name: 'Sandbox write key',
      expiresInDays: null,
      fixture: true,
    });
    addKey(world, seed.uid, {
      scope: 'read',
      name: 'Sandbox read key',
      expiresInDays: null,
      fixture: true,
    });
  }
  for (const spec of DANA_REPORTS) await seedReport(world, blobs, spec, now);
}

async function seedFile(
  world: World,
  blobs: BlobStore,
  r: ReportRecord,
  name: string,
  ms: number,
): Promise<void> {
  const fileId = stableUuid(`file:${r.id}:${name}`);
  const bytes = Buffer.from(`Evidence for "${r.title}"\nGET /example HTTP/1.1\n`);
  const generation = `${ms}000`;
  const storage_path = storagePathOf(r.id, fileId, generation);
  await blobs.put(storage_path, bytes);
  const attachment: Attachment = {
    name,
    size: bytes.length,
    content_type: 'text/plain',
    sha256: createHash('sha256').update(bytes).digest('hex'),
    storage_path,
    state: 'ready',
    started_at: isoOf(ms),
    uploaded_at: isoOf(ms),
    generation,
    reply: false,
    message_id: null,
  };
  r.attachments[fileId] = attachment;
  r.revision += 1;
}

async function seedReport(
  world: World,
  blobs: BlobStore,
  spec: SeedReport,
  now: number,
): Promise<void> {
  const dana = world.accounts.get('dana');
  const program = world.programs.get(spec.program) as ProgramRecord;
  if (!dana) return;
  const created = now - spec.hoursAgo * HOUR;
  const r = emptyReport(stableUuid(`report:dana:${spec.n}`), 'dana', program, created);
  r.title = spec.title;
  r.asset = `https://${program.id}.example/`;
  r.description = DESCRIPTION(spec.title.toLowerCase());
  r.cvss_vector = spec.cvss;
  r.revision = 1;
  r.last_save = { from: 0, to: 1 };
  if (spec.file) await seedFile(world, blobs, r, 'request.txt', created);
  world.addReport(r);
  if (spec.status === 'draft') return;
  // Submit through the same rules as the API, then move it as the agent and team would.
  const wasPaused = program.pool_paused;
  program.pool_paused = false;
  submitReport(world, dana, r.id, r.revision);
  program.pool_paused = wasPaused;
  if (spec.status === 'withdrawn') {
    world.setStatus(r, 'withdrawn');
    r.withdrawn_at = isoOf(world.clock.now());
    r.revision += 1;
  } else if (spec.status !== 'triaging') {
    const [actor, text] = MESSAGES[spec.status] ?? ['agent', 'Update.'];
    act(world, r, actor, spec.status, text);
  }
  if (spec.status === 'accepted') setPayout(world, r, 'received', 750_000);
  // Spread the seeded changes back in time, keeping their order (newest = fewest hours ago).
  const stamp = created + 30 * MINUTE;
  world.touch(r, stamp);
  r.submitted_at = isoOf(created + 10 * MINUTE);
  if (r.submission) r.submission.submitted_at = r.submitted_at;
  for (const m of r.messages) m.at = isoOf(stamp);
  if (r.decision) r.decision.at = isoOf(stamp);
  if (r.withdrawn_at) r.withdrawn_at = isoOf(stamp);
  if (r.payout) {
    r.payout.approved_at = isoOf(stamp);
    r.payout.transferred_at = isoOf(stamp + HOUR);
    r.payout.received_at = isoOf(stamp + 2 * HOUR);
  }
  stableMessageIds(r);
}

function stableMessageIds(r: ReportRecord): void {
  r.messages.forEach((m, i) => {
    m.id = stableUuid(`message:${r.id}:${i}`);
  });
}
