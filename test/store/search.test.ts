import { describe, expect, it } from 'vitest';
import { toFtsMatch } from '../../src/engine/store';
import { listed, makeMessage, makeProgram, makeReport, useTempStore } from './fixtures';

const t = useTempStore();

describe('toFtsMatch', () => {
  it('quotes every token and prefix-matches the last one', () => {
    expect(toFtsMatch('sql injection')).toBe('"sql" "injection"*');
    expect(toFtsMatch('xss* login', { prefixLast: false })).toBe('"xss"* "login"');
    expect(toFtsMatch('say "hey"')).toBe('"say" """hey"""*');
  });
  it('matches a prefix only from three characters (shorter ones expand to most words)', () => {
    expect(toFtsMatch('say "hi"')).toBe('"say" """hi"""');
    expect(toFtsMatch('t* to* tok')).toBe('"t" "to" "tok"*');
    // The prefix is the phrase's last token: "foo-b" would be "foo" followed by any b-word.
    expect(toFtsMatch('foo-b')).toBe('"foo-b"');
    expect(toFtsMatch('foo-bar')).toBe('"foo-bar"*');
  });
  it('leaves nothing to search when only punctuation is typed', () => {
    for (const input of ['', '   ', '*', '"', '-', '()', '^ : *'])
      expect(toFtsMatch(input)).toBeNull();
  });
});

describe('search', () => {
  function seed() {
    const xssTitle = makeReport({ title: 'Stored XSS in checkout', description: 'plain text' });
    const xssBody = makeReport({
      title: 'Profile bug',
      description: 'An XSS payload runs when the profile loads.',
    });
    const unrelated = makeReport({ title: 'Rate limit bypass', description: 'Too many requests.' });
    t.store.reports.upsertReports([xssTitle, xssBody, unrelated]);
    t.store.programs.upsertProgram(
      makeProgram({
        id: 'shop',
        name: 'Shop',
        scope: 'The checkout service and its payment pages',
      }),
    );
    return { xssTitle, xssBody, unrelated };
  }

  it('ranks a title hit above a description hit (bm25 with column weights)', () => {
    const { xssTitle, xssBody } = seed();
    const hits = t.store.search.searchReports('xss');
    expect(hits.map((h) => h.id)).toEqual([xssTitle.id, xssBody.id]);
    const [best, next] = hits.map((h) => h.score);
    expect(best).toBeGreaterThan(next ?? Infinity);
  });

  it('finds a report by a word only its asset holds, in the index and in a draft', () => {
    const { xssTitle } = seed();
    const withAsset = makeReport({
      title: 'Open redirect',
      description: 'plain text',
      asset: 'https://legacy-gateway.shop.example.com/login',
    });
    t.store.reports.upsertReports([withAsset]);
    expect(t.store.search.searchReports('legacy-gateway').map((h) => h.id)).toEqual([withAsset.id]);
    t.store.drafts.setContent(xssTitle.id, 'shop', {
      title: xssTitle.title,
      asset: 'android app com.zebra.scanner',
      description: 'plain text',
      cvss_vector: '',
    });
    expect(listed(t.store, { search: 'zebra', limit: 50 }).map((r) => r.id)).toEqual([xssTitle.id]);
  });

  it('finds reports through their thread and programs through their policy', () => {
    const { unrelated } = seed();
    t.store.messages.replaceThread(unrelated.id, [
      makeMessage({ body: 'Please attach a HAR file.' }),
    ]);
    expect(t.store.search.search('har file')).toEqual([
      { kind: 'report', id: unrelated.id, score: expect.any(Number) },
    ]);
    const checkout = t.store.search.search('checkout');
    expect(checkout.map((h) => h.kind).sort()).toEqual(['program', 'report']);
    // The index follows the thread: replaced messages are no longer found.
    t.store.messages.replaceThread(unrelated.id, []);
    expect(t.store.search.search('har file')).toEqual([]);
  });

  it('follows updates of titles and descriptions, leaving no stale tokens behind', () => {
    const { xssTitle } = seed();
    t.store.reports.upsertReports([
      { ...xssTitle, revision: 2, title: 'Clickjacking on checkout', description: 'frames' },
    ]);
    expect(t.store.search.searchReports('stored').map((h) => h.id)).toEqual([]);
    expect(t.store.search.searchReports('plain').map((h) => h.id)).toEqual([]);
    expect(t.store.search.searchReports('clickjack').map((h) => h.id)).toEqual([xssTitle.id]);
    // The same once the index holds the new text.
    t.store.searchIndex.flush();
    expect(t.store.search.searchReports('stored').map((h) => h.id)).toEqual([]);
    expect(t.store.search.searchReports('clickjack').map((h) => h.id)).toEqual([xssTitle.id]);
    const sqlite = t.store.db.sqlite;
    const indexed = sqlite.prepare('SELECT count(*) AS n FROM reports_fts').get() as { n: number };
    expect(indexed.n).toBe(3);
    expect(() =>
      sqlite.exec("INSERT INTO reports_fts (reports_fts) VALUES ('integrity-check')"),
    ).not.toThrow();
  });

  it('matches prefixes, and folds case and diacritics', () => {
    const report = makeReport({ title: 'Café menu injection' });
    t.store.reports.upsertReports([report]);
    expect(t.store.search.searchReports('inj').map((h) => h.id)).toEqual([report.id]);
    expect(t.store.search.searchReports('CAFE').map((h) => h.id)).toEqual([report.id]);
    expect(t.store.search.searchReports('café menu').map((h) => h.id)).toEqual([report.id]);
    expect(t.store.search.searchReports('caf*', { limit: 5 }).map((h) => h.id)).toEqual([
      report.id,
    ]);
  });

  it('treats hostile queries as plain words and never throws', () => {
    const near = makeReport({ title: 'NEAR the login form', description: 'AND OR NOT' });
    seed();
    t.store.reports.upsertReports([near]);
    const hostile = [
      '"',
      '""',
      '"unterminated',
      'NEAR(login form)',
      'NEAR',
      'login NEAR/2 form',
      '*',
      '**',
      'x*y',
      '-',
      '-xss',
      'xss -checkout',
      'title:xss',
      '{title description}: xss',
      '^xss',
      'xss OR',
      'AND',
      '(',
      ')',
      "'; DROP TABLE reports; --",
      '\u0000',
      '🙂 émoji ünïcode 漢字',
      'a'.repeat(5000),
      'x '.repeat(200),
    ];
    for (const query of hostile) {
      expect(() => t.store.search.search(query), query).not.toThrow();
      expect(() => listed(t.store, { search: query, limit: 10 }), query).not.toThrow();
    }
    // Operators are words: "NEAR" finds the report that contains the word NEAR.
    expect(t.store.search.searchReports('NEAR').map((h) => h.id)).toEqual([near.id]);
    // Words joined by punctuation stay a phrase: "NEAR(the" is the phrase "near the".
    expect(t.store.search.searchReports('NEAR(the login)').map((h) => h.id)).toEqual([near.id]);
    expect(t.store.search.searchReports('NEAR(login form)')).toEqual([]);
    // "-checkout" is not a NOT: both words must be present, so nothing matches here.
    expect(t.store.search.searchReports('rate -checkout')).toEqual([]);
    expect(t.store.search.searchReports('or not').map((h) => h.id)).toEqual([near.id]);
    expect(listed(t.store, { limit: 100 })).toHaveLength(4);
  });

  it('searches programs by name, customer and policy', () => {
    t.store.programs.upsertProgram(
      makeProgram({ id: 'a', name: 'Anvil Store', customer_name: 'Acme' }),
    );
    t.store.programs.upsertProgram(
      makeProgram({
        id: 'b',
        name: 'Rocket',
        rules: 'Anvil testing is forbidden',
        customer_name: 'Coyote',
      }),
    );
    expect(t.store.search.searchPrograms('anvil').map((h) => h.id)).toEqual(['a', 'b']);
    expect(t.store.search.searchPrograms('coyote').map((h) => h.id)).toEqual(['b']);
  });

  it('survives a re-open (the index is in the file)', () => {
    const { xssTitle } = seed();
    t.reopen();
    expect(t.store.search.searchReports('checkout').map((h) => h.id)).toEqual([xssTitle.id]);
  });
});
