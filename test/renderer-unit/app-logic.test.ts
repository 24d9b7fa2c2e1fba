import { describe, expect, it } from 'vitest';
import { parseHash, routeHash, sectionOf, type Route } from '../../src/renderer/src/lib/routes';
import { shortcutFor, type KeyLike } from '../../src/renderer/src/app/shortcuts';
import { pruneSends, verificationWaitMs } from '../../src/renderer/src/lib/verification-limit';
import { fieldIssues } from '../../src/renderer/src/lib/draft-issues';

describe('routes', () => {
  it.each<[string, Route]>([
    ['', { name: 'programs' }],
    ['#/programs', { name: 'programs' }],
    ['#/programs/acme-web', { name: 'program', programId: 'acme-web' }],
    ['#/programs/acme-web/scope', { name: 'program', programId: 'acme-web', section: 'scope' }],
    ['#/programs/acme-web/policy', { name: 'program', programId: 'acme-web', section: 'policy' }],
    // A part the page does not have opens the page at its top.
    ['#/programs/acme-web/rewards', { name: 'program', programId: 'acme-web' }],
    ['#/reports', { name: 'reports' }],
    ['#/reports/abc%2Fdef', { name: 'report', reportId: 'abc/def' }],
    ['#/account', { name: 'account' }],
    ['#/elsewhere', { name: 'programs' }],
    ['#/reports/%E0%A4%A', { name: 'reports' }],
  ])('parses %j', (hash, route) => {
    expect(parseHash(hash)).toEqual(route);
  });

  it('round-trips every route through the hash', () => {
    const routes: Route[] = [
      { name: 'programs' },
      { name: 'program', programId: 'p 1' },
      { name: 'program', programId: 'p/1', section: 'scope' },
      { name: 'reports' },
      { name: 'report', reportId: 'r#1' },
      { name: 'account' },
    ];
    for (const r of routes) expect(parseHash(routeHash(r))).toEqual(r);
    expect(sectionOf({ name: 'report', reportId: 'x' })).toBe('reports');
    expect(sectionOf({ name: 'program', programId: 'x' })).toBe('programs');
  });
});

describe('keyboard shortcuts', () => {
  const key = (k: string, mods: Partial<KeyLike> = {}): KeyLike => ({
    key: k,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    ...mods,
  });

  it('maps Ctrl on Linux/Windows and Cmd on macOS', () => {
    expect(shortcutFor(key('n', { ctrlKey: true }), false)).toEqual({
      kind: 'command',
      name: 'new-report',
    });
    expect(shortcutFor(key('n', { metaKey: true }), true)).toEqual({
      kind: 'command',
      name: 'new-report',
    });
    expect(shortcutFor(key('n', { metaKey: true }), false)).toBeNull();
    expect(shortcutFor(key('n', { ctrlKey: true }), true)).toBeNull();
  });

  it('covers save, send, sync, search and the three screens', () => {
    const ctrl = (k: string) => shortcutFor(key(k, { ctrlKey: true }), false);
    expect(ctrl('s')).toEqual({ kind: 'command', name: 'save-now' });
    expect(ctrl('Enter')).toEqual({ kind: 'command', name: 'send-reply' });
    expect(ctrl('r')).toEqual({ kind: 'command', name: 'sync-now' });
    expect(ctrl('F')).toEqual({ kind: 'command', name: 'focus-search' });
    expect(ctrl('1')).toEqual({ kind: 'navigate', section: 'programs' });
    expect(ctrl('2')).toEqual({ kind: 'navigate', section: 'reports' });
    expect(ctrl('3')).toEqual({ kind: 'navigate', section: 'account' });
    expect(ctrl('x')).toBeNull();
    expect(shortcutFor(key('s'), false)).toBeNull();
    expect(shortcutFor(key('s', { ctrlKey: true, altKey: true }), false)).toBeNull();
  });
});

describe('verification e-mail limit (1 a minute, 5 an hour)', () => {
  const min = 60_000;
  it('allows the first send and waits a minute after one', () => {
    expect(verificationWaitMs([], 0)).toBe(0);
    expect(verificationWaitMs([1000], 1000)).toBe(min);
    expect(verificationWaitMs([1000], 1000 + 45_000)).toBe(15_000);
    expect(verificationWaitMs([1000], 1000 + min)).toBe(0);
  });

  it('after five sends in an hour waits until the oldest leaves the hour', () => {
    const sends = [0, 2, 4, 6, 8].map((m) => m * min);
    expect(verificationWaitMs(sends, 10 * min)).toBe(50 * min);
    expect(verificationWaitMs(sends, 60 * min)).toBe(0);
    expect(pruneSends([...sends, -61 * min], 10 * min)).toEqual(sends);
  });
});

describe('draft field errors', () => {
  const live = { title: 'ok', asset: 'a', cvss_vector: '', descriptionLength: 10 };

  it('reports live length limits per field', () => {
    const e = fieldIssues([], { ...live, title: 'x'.repeat(181), descriptionLength: 30_001 });
    expect(e.title).toEqual(['The title is 1 character too long.']);
    expect(e.description).toEqual(['The description is 1 character too long.']);
    expect(e.asset).toEqual([]);
  });

  it('checks the CVSS vector live, and empty is allowed', () => {
    expect(fieldIssues([], live).cvss_vector).toEqual([]);
    expect(fieldIssues([], { ...live, cvss_vector: 'CVSS:3.1/AV:N' }).cvss_vector[0]).toMatch(
      /missing metric AC/,
    );
  });

  it('adds the engine issues to their fields, once', () => {
    const e = fieldIssues(
      [
        { field: 'title', message: 'must not be blank' },
        { field: 'title', message: 'must not be blank' },
        { field: 'asset', message: 'too long' },
      ],
      live,
    );
    expect(e.title).toEqual(['must not be blank']);
    expect(e.asset).toEqual(['too long']);
  });
});
