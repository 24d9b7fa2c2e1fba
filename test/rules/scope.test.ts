import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractTargets, matchAsset, parseScope } from '../../src/shared/scope/scope';

/** A program policy as programs write it: prose, lists, a table, code spans. */
const SCOPE = `
In scope for this program:

- \`*.shop.example.com\` — all storefronts
- https://api.example.com/v2 (the public API, v2 only)
- admin.example.org
- Our office range 198.51.100.0/24 and the VPN gateway 203.0.113.7
- Android app **com.example.shop** and the iOS app https://apps.apple.com/us/app/example-shop/id1234567890
- https://play.google.com/store/apps/details?id=com.example.wallet

| Asset | Type |
| --- | --- |
| partners.example.net | web |
`;

const EXCLUSIONS = `
- legacy.shop.example.com (being retired)
- https://api.example.com/v2/internal
- Denial of service, social engineering, e.g. phishing
- Findings in README.md files
`;

const rules = parseScope(SCOPE, EXCLUSIONS);

describe('scope guard', () => {
  it('extracts hosts, wildcards, URLs, IP ranges and app ids from prose', () => {
    const all = rules.scope.flatMap((l) => l.targets);
    expect(all).toEqual(
      expect.arrayContaining([
        { type: 'wildcard', domain: 'shop.example.com' },
        { type: 'url', host: 'api.example.com', path: '/v2' },
        { type: 'host', host: 'admin.example.org' },
        { type: 'cidr', address: '198.51.100.0', prefix: 24 },
        { type: 'ip', address: '203.0.113.7' },
        { type: 'app', id: 'com.example.shop' },
        { type: 'app', id: 'id1234567890' },
        { type: 'app', id: 'com.example.wallet' },
        { type: 'host', host: 'partners.example.net' },
      ]),
    );
    // Lines without targets (prose) are not scope lines.
    expect(rules.exclusions.map((l) => l.text)).toEqual([
      'legacy.shop.example.com (being retired)',
      'https://api.example.com/v2/internal',
      'Findings in README.md files',
    ]);
  });

  const cases: [string, string, string | null][] = [
    ['https://eu.shop.example.com/cart?id=1', 'in-scope', '*.shop.example.com — all storefronts'],
    ['eu.shop.example.com', 'in-scope', '*.shop.example.com — all storefronts'],
    [
      'https://api.example.com/v2/users/7',
      'in-scope',
      'https://api.example.com/v2 (the public API, v2 only)',
    ],
    ['API at https://admin.example.org/login', 'in-scope', 'admin.example.org'],
    [
      '198.51.100.77',
      'in-scope',
      'Our office range 198.51.100.0/24 and the VPN gateway 203.0.113.7',
    ],
    [
      'http://203.0.113.7:8443/',
      'in-scope',
      'Our office range 198.51.100.0/24 and the VPN gateway 203.0.113.7',
    ],
    ['Android app com.example.shop 4.2.1', 'in-scope', null],
    ['partners.example.net', 'in-scope', 'partners.example.net · web'],
    ['legacy.shop.example.com', 'excluded', 'legacy.shop.example.com (being retired)'],
    [
      'https://api.example.com/v2/internal/debug',
      'excluded',
      'https://api.example.com/v2/internal',
    ],
    ['https://api.example.com/v1/users', 'out-of-scope', null],
    ['shop.example.com', 'out-of-scope', null],
    ['www.other-company.com', 'out-of-scope', null],
    ['198.51.101.1', 'out-of-scope', null],
    ['the login form', 'unknown', null],
  ];
  for (const [asset, status, line] of cases) {
    it(`${asset} → ${status}`, () => {
      const match = matchAsset(rules, asset);
      expect(match.status).toBe(status);
      if (line !== null && 'line' in match) expect(match.line).toBe(line);
    });
  }

  it('reads scope lines as programs write them', () => {
    const cases: [scope: string, asset: string, status: string][] = [
      ['https://app.circle.com/*', 'https://app.circle.com/api/x', 'in-scope'],
      ['https://app.circle.com/*', 'app.circle.com', 'in-scope'],
      ['*.acme.example', 'app.acme.example', 'in-scope'],
      ['eu.fs.viq.zebra.com/public-api', 'https://eu.fs.viq.zebra.com/public-api/v1', 'in-scope'],
      ['eu.fs.viq.zebra.com/public-api', 'https://eu.fs.viq.zebra.com/admin', 'out-of-scope'],
      ['*agrisync.com', 'https://www.agrisync.com/', 'in-scope'],
      ['vcc-*.8x8.com', 'vcc-eu3.8x8.com', 'in-scope'],
      ['vcc-*.8x8.com', 'www.8x8.com', 'out-of-scope'],
      ['*.century21.*', 'https://www.century21.fr/', 'in-scope'],
      ['*.century21.*', 'https://www.century21.com.evil-example.net/', 'out-of-scope'],
      ['api-*.x.com', 'api-eu.x.com', 'in-scope'],
      ['www.example.com.', 'https://www.example.com./login', 'in-scope'],
      ['WWW.Example.COM', 'www.example.com', 'in-scope'],
      ['2001:db8::/32', 'http://[2001:db8::1]/', 'in-scope'],
      ['2001:db8::/32', '2001:db8:0:1::5', 'in-scope'],
      ['2001:db8::/32', '2001:db9::1', 'out-of-scope'],
      [
        'https://itunes.apple.com/us/app/square-cash/id711923939',
        'iOS app id711923939',
        'in-scope',
      ],
      ['Android: com.squareup.cash', 'com.squareup.cash', 'in-scope'],
      ['*.bücher.de', 'www.bücher.de', 'in-scope'],
      ['*.bücher.de', 'https://shop.xn--bcher-kva.de/', 'in-scope'],
      ['*.xn--bcher-kva.de', 'www.bücher.de', 'in-scope'],
      ['*.bücher.de', 'cher.de', 'out-of-scope'],
      ['api.example.com:8443', 'https://api.example.com:8443/v1', 'in-scope'],
    ];
    for (const [scope, asset, status] of cases)
      expect(matchAsset(parseScope(`- ${scope}`, ''), asset).status, `${scope} / ${asset}`).toBe(
        status,
      );
    // A bare app id is an app, not a host under the .cash top-level domain.
    expect(extractTargets('com.squareup.cash')).toEqual([{ type: 'app', id: 'com.squareup.cash' }]);
  });

  it('reads exclusions in every shape scope lines are read in; an excluded asset is never in scope', () => {
    const cases: [scope: string, exclusion: string, asset: string, status: string][] = [
      ['*.example.com', 'ads*.example.com', 'ads1.example.com', 'excluded'],
      ['*.example.com', 'pt*.example.com', 'https://pt-eu.example.com/x', 'excluded'],
      ['*.example.com', '*cms.example.com', 'fastcms.example.com', 'excluded'],
      ['*.example.*', '*.content.example.*', 'a.content.example.de', 'excluded'],
      ['*.example.com', '*.content.example.*', 'img.content.example.com', 'excluded'],
      ['*.example.com', 'ads*.example.com', 'www.example.com', 'in-scope'],
      // App Store ids, however written, on either side.
      [
        'https://apps.apple.com/us/app/steam/id1018340690',
        '1018340690',
        'id1018340690',
        'excluded',
      ],
      [
        'iOS app 1018340691',
        'https://apps.apple.com/us/app/steam/id1018340690',
        '1018340690',
        'excluded',
      ],
      [
        'iOS app id1018340690',
        '',
        'https://apps.apple.com/gb/app/steam-mobile/id1018340690',
        'in-scope',
      ],
      // Code-host accounts and repositories without case.
      [
        '*.valvesoftware.com',
        'github.com/valvesoftware',
        'https://github.com/ValveSoftware/x',
        'excluded',
      ],
      ['https://github.com/ValveSoftware', '', 'github.com/valvesoftware/steam', 'in-scope'],
      // Paths under an in-scope host, with a glob inside a segment.
      ['example.com', 'example.com/blog*', 'https://example.com/blog/post', 'excluded'],
      ['example.com', 'example.com/blog*', 'https://example.com/blogs', 'excluded'],
      ['example.com', 'example.com/blog*', 'https://example.com/shop', 'in-scope'],
      [
        '*.example.com',
        'www.example.com/users/*.json',
        'https://www.example.com/users/7.json',
        'excluded',
      ],
      // A wildcard with a path covers that path only, IDN or not.
      ['*.bücher.de/shop', '', 'https://a.bücher.de/other', 'out-of-scope'],
      ['*.bücher.de/shop', '', 'https://a.xn--bcher-kva.de/shop/cart', 'in-scope'],
      ['*.example.de/shop/*', '', 'https://a.example.de/', 'out-of-scope'],
      // S3 buckets in every form.
      [
        '*.amazonaws.com',
        's3://mybucket',
        'https://mybucket.s3.eu-west-1.amazonaws.com/',
        'excluded',
      ],
      ['*.amazonaws.com', 's3://mybucket', 'https://s3.amazonaws.com/mybucket/key', 'excluded'],
      ['*.amazonaws.com', 'mybucket.s3.amazonaws.com', 's3://mybucket', 'excluded'],
      ['s3://mybucket', '', 'mybucket.s3-us-west-2.amazonaws.com', 'in-scope'],
      ['s3://mybucket', '', 's3://otherbucket', 'out-of-scope'],
      // An address typed alone is the host of the URL that lists it.
      ['http://169.254.169.254/', '', '169.254.169.254', 'in-scope'],
      ['10.0.0.0/8', 'http://10.1.2.3/', '10.1.2.3', 'excluded'],
      ['10.0.0.0/8', '10.1.2.0 - 10.1.2.99', '10.1.2.50', 'excluded'],
      ['10.0.0.0/8', '10.1.2.0-99', '10.1.2.100', 'in-scope'],
      // Placeholders inside names.
      [
        '*.example.com',
        'bugcrowd-%username%-1.example.com',
        'bugcrowd-jane-1.example.com',
        'excluded',
      ],
      ['*.example.*', 'www.example.<country>', 'www.example.fr', 'excluded'],
      ['*.example.com', 'ov-XX.example.com', 'ov-12.example.com', 'excluded'],
      ['*.example.(fr|de)', '', 'www.example.de', 'in-scope'],
      ['*.example.com', 'community.example.com | .fr', 'community.example.fr', 'excluded'],
    ];
    for (const [scope, exclusion, asset, status] of cases)
      expect(
        matchAsset(parseScope(`- ${scope}`, exclusion ? `- ${exclusion}` : ''), asset).status,
        `${scope} / ${exclusion} / ${asset}`,
      ).toBe(status);
  });

  it('answers "unsure" where the policy does not settle it, naming the line to read', () => {
    const carve = parseScope('- api.example.com\n- *.example.com', '- *.example.com except api');
    expect(matchAsset(carve, 'www.example.com')).toMatchObject({ status: 'unsure' });
    const contradiction = parseScope('- https://www.example.com', '- https://www.example.*');
    expect(matchAsset(contradiction, 'www.example.com')).toMatchObject({
      status: 'unsure',
      line: 'https://www.example.*',
    });
    const catchAll = parseScope('- *.example.com\n- Any asset owned by Example Inc.', '');
    expect(matchAsset(catchAll, 'example-cdn.net')).toMatchObject({
      status: 'unsure',
      line: 'Any asset owned by Example Inc.',
    });
    const onHost = parseScope('- app.example.com', '- Third-party widgets on app.example.com');
    expect(matchAsset(onHost, 'https://app.example.com/x').status).toBe('unsure');
    // "Other subdomains" spares the ones the scope lists.
    const others = parseScope('- app.example.com', '- Other subdomains of example.com');
    expect(matchAsset(others, 'app.example.com').status).toBe('in-scope');
    expect(matchAsset(others, 'blog.example.com').status).toBe('excluded');
    // A path exclusion typed against the bare host: a part of it is excluded.
    const path = parseScope('- *.example.com', '- www.example.com/admin');
    expect(matchAsset(path, 'www.example.com').status).toBe('unsure');
    expect(matchAsset(path, 'https://www.example.com/admin/x').status).toBe('excluded');
  });

  it('says nothing when the policy lists no targets', () => {
    const prose = parseScope('- web assets of Example\n- api assets', '- Denial of service');
    expect(matchAsset(prose, 'https://example.com')).toEqual({ status: 'unknown' });
  });

  it('knows special-use names that are no public suffix (.example, .test, .internal)', () => {
    const internal = parseScope(
      '- `*.shop.corp.internal`\n- api.staging.test',
      '- old.shop.corp.internal',
    );
    expect(matchAsset(internal, 'https://eu.shop.corp.internal/x').status).toBe('in-scope');
    expect(matchAsset(internal, 'api.staging.test').status).toBe('in-scope');
    expect(matchAsset(internal, 'old.shop.corp.internal').status).toBe('excluded');
  });

  it('a range or a pattern typed as the asset is covered when the line covers all of it', () => {
    const rules = parseScope('- 203.13.128.0/24\n- api-*.x.com', '- 203.13.128.64/27');
    expect(matchAsset(rules, '203.13.128.80/28').status).toBe('excluded');
    expect(matchAsset(rules, '203.13.128.128/26').status).toBe('in-scope');
    expect(matchAsset(rules, '203.13.0.0/16').status).toBe('out-of-scope');
    expect(matchAsset(rules, '203.13.128.7').status).toBe('in-scope');
    expect(matchAsset(rules, 'api-*.x.com').status).toBe('in-scope');
    expect(matchAsset(rules, 'web-*.x.com').status).toBe('out-of-scope');
  });

  it('does not take file names or versions for hosts', () => {
    expect(extractTargets('see report.pdf, v1.2.3 and e.g. this')).toEqual([]);
  });

  it('never throws on arbitrary scope text and assets', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }),
        fc.string({ maxLength: 300 }),
        fc.string({ maxLength: 100 }),
        (s, e, a) => {
          matchAsset(parseScope(s, e), a);
        },
      ),
      { numRuns: 300 },
    );
  });
});
