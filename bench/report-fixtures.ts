/**
 * Full reports shaped like real ones for the SQLite figures of `bench/store.ts` and
 * `bench/engine.ts` (about 200 words of Markdown each, a skewed vocabulary): one generator, so
 * the two suites' upsert figures compare.
 */
import { randomUUID } from 'node:crypto';
import type { Report, ReportStatus } from '../src/shared/api';

const words = (
  'xss csrf ssrf injection sql redirect token session cookie header upload parser template ' +
  'race condition overflow deserialization traversal path admin panel account takeover api ' +
  'graphql webhook oauth saml cache poisoning clickjacking cors idor privilege escalation ' +
  'password reset email mobile certificate pinning bucket storage lambda kubernetes secret'
).split(' ');
export const statuses: ReportStatus[] = ['draft', 'triaging', 'needs_info', 'accepted', 'rejected'];

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
 */
export function makeReports(count: number): Report[] {
  const random = prng(42);
  const filler = Array.from({ length: 4000 }, (_, i) => `w${(i * 7919).toString(36)}`);
  const word = () => filler[Math.floor(random() ** 2 * filler.length)] ?? 'word';
  const term = () => words[Math.floor(random() * words.length)] ?? 'xss';
  const sentence = (n: number) =>
    Array.from({ length: n }, (_, k) => (k % 25 === 0 ? term() : word())).join(' ');
  const start = Date.UTC(2024, 0, 1);
  return Array.from({ length: count }, (_, i) => {
    const updated = new Date(start + i * 60_000).toISOString();
    return {
      id: randomUUID(),
      program_id: `program-${i % 40}`,
      program_name: `Program ${i % 40}`,
      status: statuses[i % statuses.length] ?? 'draft',
      display_status: 'Label',
      title: `${term()} ${term()} in ${word()} ${word()}`,
      revision: 1 + (i % 7),
      created_at: updated,
      updated_at: updated,
      submitted_at: null,
      withdrawn_at: null,
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
      payout: null,
    };
  });
}
