import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  deepLinkFor,
  linksInArgv,
  parseDeepLink,
  targetHash,
  type DeepLinkTarget,
} from '../../src/main/rules/deep-link';
import type { Logger, LogFields } from '../../src/engine/log/logger';
import { AppNavigator } from '../../src/main/deep-links';
import { parseHash } from '../../src/renderer/src/lib/routes';

const REPORT = '3f1c2a9e-8d4b-4c1e-9f2a-7b6c5d4e3f21';
const programId = fc.stringMatching(/^[a-z0-9-]{1,80}$/);
const target: fc.Arbitrary<DeepLinkTarget> = fc.oneof(
  fc.uuid().map((reportId) => ({ kind: 'report' as const, reportId })),
  programId.map((id) => ({ kind: 'program' as const, programId: id })),
);

describe('bountydesk:// links', () => {
  it('accepts the two shapes with a valid id', () => {
    expect(parseDeepLink(`bountydesk://report/${REPORT}`)).toEqual({
      ok: true,
      target: { kind: 'report', reportId: REPORT },
    });
    expect(parseDeepLink('bountydesk://program/acme-web')).toEqual({
      ok: true,
      target: { kind: 'program', programId: 'acme-web' },
    });
    // A launcher may add a slash; the scheme and a UUID's hex digits are case-insensitive.
    expect(parseDeepLink(`BountyDesk://report/${REPORT.toUpperCase()}/`)).toEqual({
      ok: true,
      target: { kind: 'report', reportId: REPORT },
    });
  });

  it('refuses everything else, with a reason', () => {
    const refused: [unknown, string][] = [
      [undefined, 'not-a-string'],
      [42, 'not-a-string'],
      ['https://example.com/report/x', 'not-a-bountydesk-link'],
      [`bountydesk://report/${REPORT}?x=1`, 'unknown-shape'],
      [`bountydesk://report/${REPORT}#top`, 'unknown-shape'],
      [`bountydesk://report/${REPORT}/thread`, 'unknown-shape'],
      [`bountydesk://user@report/${REPORT}`, 'unknown-shape'],
      [`bountydesk:report/${REPORT}`, 'unknown-shape'],
      [`bountydesk://report/${REPORT}//`, 'unknown-shape'],
      [`bountydesk://report/ ${REPORT}`, 'unknown-shape'],
      ['bountydesk://report/not-a-uuid', 'bad-report-id'],
      [`bountydesk://report/${REPORT.replace(/-/g, '%2D')}`, 'bad-report-id'],
      ['bountydesk://program/Acme', 'bad-program-id'],
      ['bountydesk://program/..', 'bad-program-id'],
      ['bountydesk://program/a%2Fb', 'bad-program-id'],
      [`bountydesk://REPORT/${REPORT}`, 'unknown-place'],
      [`bountydesk://program/${'a'.repeat(81)}`, 'bad-program-id'],
      [`bountydesk://report/${REPORT}${' '.repeat(300)}`, 'too-long'],
    ];
    for (const [raw, reason] of refused) expect(parseDeepLink(raw)).toEqual({ ok: false, reason });
  });

  it('never throws, whatever it is given', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        parseDeepLink(value);
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        parseDeepLink(`bountydesk://${text}`);
        parseDeepLink(text);
      }),
    );
  });

  it('accepts a text only when it is the link of its target (the two shapes, nothing more)', () => {
    const near = fc.oneof(
      target.map(deepLinkFor),
      fc
        .tuple(target.map(deepLinkFor), fc.string({ maxLength: 3 }), fc.nat())
        .map(([link, extra, at]) => {
          const i = at % (link.length + 1);
          return link.slice(0, i) + extra + link.slice(i);
        }),
      fc.string({ unit: 'binary' }).map((s) => `bountydesk://${s}`),
    );
    fc.assert(
      fc.property(near, (raw) => {
        const result = parseDeepLink(raw);
        if (!result.ok) return;
        const canonical = deepLinkFor(result.target);
        expect(raw.replace(/\/$/, '').toLowerCase()).toBe(canonical.toLowerCase());
        if (result.target.kind === 'report') {
          expect(result.target.reportId).toMatch(/^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/);
        } else {
          expect(result.target.programId).toMatch(/^[a-z0-9-]{1,80}$/);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('round-trips every valid target, to the renderer route of the same place', () => {
    fc.assert(
      fc.property(target, (t) => {
        expect(parseDeepLink(deepLinkFor(t))).toEqual({ ok: true, target: t });
        const route = parseHash(`#${targetHash(t)}`);
        expect(route).toEqual(
          t.kind === 'report'
            ? { name: 'report', reportId: t.reportId }
            : { name: 'program', programId: t.programId },
        );
      }),
    );
  });

  it('finds links in a command line and ignores the other arguments', () => {
    const argv = [
      '/opt/Bounty Desk/bounty-desk',
      '--allow-file-access-from-files',
      `bountydesk://report/${REPORT}`,
      'bountydesk://evil/x',
    ];
    expect(linksInArgv(argv)).toEqual([
      { ok: true, target: { kind: 'report', reportId: REPORT } },
      { ok: false, reason: 'unknown-shape' },
    ]);
    expect(linksInArgv(['/usr/bin/app', '.'])).toEqual([]);
  });
});

function recordingLog(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const write =
    (level: string) =>
    (scope: string, event: string, fields: LogFields = {}): void =>
      void lines.push(`${level} ${scope} ${event} ${JSON.stringify(fields)}`);
  return { lines, info: write('info'), warn: write('warn'), error: write('error') };
}

describe('AppNavigator: where a link or a notification takes the window', () => {
  function setup(initial: 'not-ready' | 'none' | 'loading' | 'loaded') {
    let state = initial;
    const did: string[] = [];
    const log = recordingLog();
    const nav = new AppNavigator(
      {
        window: () => state,
        showWindow: (hash) => void did.push(hash ? `show ${hash}` : 'show'),
        send: (t) => void did.push(`send ${t.kind}`),
        log,
      },
      targetHash,
    );
    return { nav, did, log, set: (s: typeof state) => (state = s) };
  }

  it('a loaded page is told to go there; no window: one opens at the place', () => {
    const loaded = setup('loaded');
    expect(loaded.nav.openLink(`bountydesk://report/${REPORT}`, 'second-instance')).toBe(true);
    expect(loaded.did).toEqual(['show', 'send report']);
    const none = setup('none');
    none.nav.open({ kind: 'program', programId: 'acme-web' });
    expect(none.did).toEqual(['show /programs/acme-web']);
  });

  it('before ready the place waits for the first window; while loading, for the page', () => {
    const early = setup('not-ready');
    early.nav.openLink('bountydesk://program/acme-web', 'open-url');
    expect(early.did).toEqual([]);
    expect(early.nav.takeStartHash()).toBe('/programs/acme-web');
    expect(early.nav.takeStartHash()).toBeUndefined();
    const loading = setup('loading');
    loading.nav.open({ kind: 'report', reportId: REPORT });
    expect(loading.did).toEqual(['show']);
    loading.nav.loaded();
    loading.nav.loaded();
    expect(loading.did).toEqual(['show', 'send report']);
  });

  it('refuses and logs any other link, by reason and never by its text', () => {
    const { nav, did, log } = setup('loaded');
    expect(nav.openLink('bountydesk://report/"><svg>', 'open-url')).toBe(false);
    expect(nav.openArgv(['app', 'bountydesk://settings/reset'], 'second-instance')).toBe(false);
    expect(did).toEqual([]);
    expect(log.lines).toEqual([
      'warn links refused {"source":"open-url","reason":"bad-report-id"}',
      'warn links refused {"source":"second-instance","reason":"unknown-shape"}',
    ]);
  });
});
