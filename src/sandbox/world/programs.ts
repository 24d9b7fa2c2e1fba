/**
 * The seeded programs: every intake, one open program with its pool paused, one private program
 * with one invited account, one unpublished program, every asset type and every reward band.
 */
import type { Intake, Rewards } from '../api-types';
import { DAY } from '../clock';
import type { ProgramRecord } from '../state/types';

interface ProgramSeed {
  id: string;
  name: string;
  customer_name: string;
  intake: Intake;
  asset_types: string[];
  rewards: Rewards;
  updated_days_ago: number;
  pool_paused?: boolean;
  private?: boolean;
  published?: boolean;
  invited?: string[];
  demo?: boolean;
  summary: string;
}

/**
 * Scope lines shaped as real public programs write them (bounty-targets-data): wildcards, URLs
 * with `/*`, a host plus path without a scheme, a wildcard inside a label, IPv4 and IPv6
 * ranges, app store links and package ids. Names are under `.example` (RFC 2606), never real.
 */
const SCOPES: Record<string, { scope: string[]; exclusions: string[] }> = {
  'sandbox-playground': {
    scope: [
      '`*.playground.example` (every storefront)',
      'https://api.playground.example/v2/*',
      'playground.example/account',
      'Android app: com.playground.shop',
      'iOS app: https://apps.apple.com/us/app/playground-shop/id1234567890',
      'Office range 198.51.100.0/24 and 2001:db8:100::/48',
    ],
    exclusions: ['legacy.playground.example (retired, read-only)'],
  },
  'wayne-private': {
    scope: ['*.wayne.example', 'vpn-*.wayne.example', '203.0.113.0/24'],
    exclusions: ['status.wayne.example (third party)'],
  },
  'acme-web': {
    scope: ['*.acme.example', 'https://shop.acme.example/*', 'acme.example/api/v1'],
    exclusions: ['blog.acme.example (hosted by a vendor)'],
  },
  'stark-portal': {
    scope: ['portal.stark.example', 'https://portal.stark.example/admin/*'],
    exclusions: ['https://portal.stark.example/admin/legacy'],
  },
  'globex-api': {
    scope: ['https://api.globex.example/v3/*', 'api-*.globex.example'],
    exclusions: ['api-sandbox.globex.example'],
  },
  'tyrell-unpublished': { scope: ['*.tyrell.example'], exclusions: [] },
  'initech-mobile': {
    scope: [
      'Android: com.initech.tps',
      'iOS: https://apps.apple.com/us/app/initech-tps/id987654321',
      'https://mobile-api.initech.example/*',
    ],
    exclusions: [],
  },
  'umbrella-cloud': {
    scope: ['*.umbrella.example', 'console.umbrella.example', '192.0.2.0/24'],
    exclusions: ['docs.umbrella.example'],
  },
  'hooli-source': { scope: ['https://git.hooli.example/hooli/*'], exclusions: [] },
  'vandelay-hardware': { scope: ['firmware.vandelay.example'], exclusions: [] },
};

const SEEDS: ProgramSeed[] = [
  {
    id: 'sandbox-playground',
    name: 'Sandbox Playground',
    customer_name: 'Bounty Desk',
    intake: 'open',
    demo: true,
    asset_types: ['web', 'api', 'mobile', 'source_code', 'cloud', 'hardware', 'other'],
    rewards: { low: 50, medium: 200, high: 600, critical: 900 },
    updated_days_ago: 0.5,
    summary: 'A practice program: anything goes, nothing is real.',
  },
  {
    id: 'wayne-private',
    name: 'Wayne Enterprises (private)',
    customer_name: 'Wayne Enterprises',
    intake: 'open',
    private: true,
    invited: ['ada'],
    asset_types: ['web', 'api', 'cloud'],
    rewards: { low: 250, medium: 1000, high: 5000, critical: 15000 },
    updated_days_ago: 1,
    summary: 'Invitation-only program for the internal partner portal.',
  },
  {
    id: 'acme-web',
    name: 'Acme Web Platform',
    customer_name: 'Acme Corp',
    intake: 'open',
    asset_types: ['web', 'api'],
    rewards: { low: 100, medium: 500, high: 2000, critical: 7500 },
    updated_days_ago: 2,
    summary: 'The main web application and its public API.',
  },
  {
    id: 'stark-portal',
    name: 'Stark Industries Portal',
    customer_name: 'Stark Industries',
    intake: 'open',
    pool_paused: true,
    asset_types: ['web'],
    rewards: { low: 100, medium: 300, high: 900, critical: 2500 },
    updated_days_ago: 3,
    summary: 'Customer portal. New reports are paused while the reward pool is refilled.',
  },
  {
    id: 'globex-api',
    name: 'Globex Public API',
    customer_name: 'Globex',
    intake: 'open',
    asset_types: ['api'],
    rewards: { low: 50, medium: 250, high: 750 },
    updated_days_ago: 5,
    summary: 'REST API for partners.',
  },
  {
    id: 'tyrell-unpublished',
    name: 'Tyrell Replicant Labs',
    customer_name: 'Tyrell Corporation',
    intake: 'open',
    published: false,
    asset_types: ['other'],
    rewards: { low: 100, medium: 500 },
    updated_days_ago: 10,
    summary: 'Not published yet.',
  },
  {
    id: 'initech-mobile',
    name: 'Initech Mobile Apps',
    customer_name: 'Initech',
    intake: 'open',
    asset_types: ['mobile'],
    rewards: { low: 200, medium: 1000, high: 3000, critical: 4000 },
    updated_days_ago: 12,
    summary: 'iOS and Android apps.',
  },
  {
    id: 'umbrella-cloud',
    name: 'Umbrella Cloud',
    customer_name: 'Umbrella',
    intake: 'open',
    asset_types: ['cloud', 'web'],
    rewards: { medium: 2000, high: 8000, critical: 25000 },
    updated_days_ago: 20,
    summary: 'Cloud infrastructure and the management console.',
  },
  {
    id: 'hooli-source',
    name: 'Hooli Source Review',
    customer_name: 'Hooli',
    intake: 'paused',
    asset_types: ['source_code'],
    rewards: { low: 100, medium: 400, high: 1500, critical: 5000 },
    updated_days_ago: 40,
    summary: 'Open-source libraries. Intake is paused for a release freeze.',
  },
  {
    id: 'vandelay-hardware',
    name: 'Vandelay Devices',
    customer_name: 'Vandelay Industries',
    intake: 'closed',
    asset_types: ['hardware', 'other'],
    rewards: { low: 500, medium: 1500, high: 4000, critical: 12000 },
    updated_days_ago: 90,
    summary: 'Firmware and devices. The program is closed.',
  },
];

function policyText(
  seed: ProgramSeed,
): Omit<
  ProgramRecord,
  'id' | 'name' | 'customer_name' | 'intake' | 'asset_types' | 'rewards' | 'summary' | 'updated_ms'
> {
  return {
    description: `## ${seed.name}\n\n${seed.summary}\n\nRun by ${seed.customer_name}.`,
    scope: [
      ...(SCOPES[seed.id]?.scope ?? []),
      ...seed.asset_types.map((a) => `${a} assets of ${seed.customer_name}`),
    ]
      .map((line) => `- ${line}`)
      .join('\n'),
    exclusions: [
      ...(SCOPES[seed.id]?.exclusions ?? []),
      'Denial of service',
      'Social engineering',
      'Findings from automated scanners only',
    ]
      .map((line) => `- ${line}`)
      .join('\n'),
    rules: '- Test only with your own accounts.\n- Do not access data of other users.',
    eligibility: 'Researchers with a verified e-mail and a connected payout account.',
    disclosure: 'No public disclosure without written consent.',
    policy_version: 1,
    pool_paused: false,
    private: false,
    published: true,
    invited: [],
    demo: false,
  };
}

export function seedPrograms(now: number): ProgramRecord[] {
  return SEEDS.map((seed) => {
    const { updated_days_ago, ...rest } = seed;
    return {
      ...policyText(seed),
      ...rest,
      invited: seed.invited ?? [],
      updated_ms: Math.round(now - updated_days_ago * DAY),
    } as ProgramRecord;
  });
}
