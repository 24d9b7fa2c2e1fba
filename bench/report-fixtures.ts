/**
 * Full reports shaped like real ones for the SQLite figures of `bench/store.ts` and
 * `bench/engine.ts` (about 200 words of Markdown each, a skewed vocabulary): one generator, so
 * the two suites' upsert figures compare.
 */
import { randomUUID } from '../test/support/random';
import type { Message, Report, ReportStatus } from '../src/shared/api';

const words = (
  'xss csrf ssrf injection sql redirect token session cookie header upload parser template ' +
  'race condition overflow deserialization traversal path admin panel account takeover api ' +
  'graphql webhook oauth saml cache poisoning clickjacking cors idor privilege escalation ' +
  'password reset email mobile certificate pinning bucket storage lambda kubernetes secret'
).split(' ');
/**
 * As an account with years of reports holds them: drafts and final decisions. An account has at
 * most five active reports (triaging, needs info, paused), so a big mirror holds almost none.
 */
export const statuses: ReportStatus[] = ['draft', 'accepted', 'rejected', 'duplicate', 'withdrawn'];

/** Deterministic pseudo-random numbers, so runs compare. */
export function prng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/**
 * Text shaped like real reports: a wide, skewed vocabulary of ordinary words plus a few security
 * terms per report, so a query matches a realistic share of reports instead of nearly all.
 * `from` numbers a later chunk of the same mirror (big mirrors are made a chunk at a time).
 * Accepted reports carry a received payout, as they do once paid: the engine's payout follow-up
 * leaves them alone.
 */
export function makeReports(count: number, from = 0): Report[] {
  const random = prng(42 + from);
  const filler = Array.from({ length: 4000 }, (_, i) => `w${(i * 7919).toString(36)}`);
  const word = () => filler[Math.floor(random() ** 2 * filler.length)] ?? 'word';
  const term = () => words[Math.floor(random() * words.length)] ?? 'xss';
  const sentence = (n: number) =>
    Array.from({ length: n }, (_, k) => (k % 25 === 0 ? term() : word())).join(' ');
  const start = Date.UTC(2024, 0, 1);
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    const updated = new Date(start + i * 60_000).toISOString();
    const status = statuses[i % statuses.length] ?? 'draft';
    return {
      id: randomUUID(),
      program_id: `program-${i % 40}`,
      program_name: `Program ${i % 40}`,
      status,
      display_status: 'Label',
      title: `${term()} ${term()} in ${word()} ${word()}`,
      revision: 1 + (i % 7),
      created_at: updated,
      updated_at: updated,
      submitted_at: status === 'draft' ? null : updated,
      withdrawn_at: status === 'withdrawn' ? updated : null,
      asset: `https://app${i % 50}.example/${word()}`,
      // About 200 words (1.5 KB) of Markdown per report.
      description: [
        '## Steps to reproduce',
        sentence(60),
        '## Expected behavior',
        sentence(40),
        '## Actual behavior',
        sentence(40),
        '## Security impact',
        sentence(60),
      ].join('\n\n'),
      cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
      attachments: {
        [randomUUID()]: {
          name: 'poc.png',
          size: 1234,
          content_type: 'image/png',
          sha256: 'ab'.repeat(32),
          storage_path: 'reports/x/poc.png',
          state: 'ready',
          started_at: updated,
          uploaded_at: updated,
        },
      },
      submission: null,
      decision: null,
      payout:
        status === 'accepted'
          ? {
              status: 'received',
              amount_cents: 50_000,
              approved_at: updated,
              transferred_at: updated,
              received_at: updated,
              payout_failed_at: null,
            }
          : null,
    };
  });
}

/** The thread of a submitted report: the triage agent's question and the researcher's answer. */
export function makeThread(report: Report): Message[] {
  if (report.submitted_at === null) return [];
  const at = report.updated_at;
  return [
    {
      id: randomUUID(),
      author: 'agent',
      body: `Thanks for the report on ${report.title}. Could you confirm the affected endpoint?`,
      at,
      attachments: [],
    },
    {
      id: randomUUID(),
      author: 'researcher',
      body: 'Confirmed: the same request works against the production host.',
      at,
      attachments: [],
    },
  ];
}
