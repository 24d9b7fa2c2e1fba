import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBurpXml } from '../../src/engine/evidence/http-import/burp';
import { scanFile } from '../../src/engine/evidence/secret-scan/file-scan';
import { gitleaksRuleCount } from '../../src/engine/evidence/secret-scan/gitleaks';
import { NOT_SESSION_COOKIE } from '../../src/engine/evidence/secret-scan/rules';
import { redact, scanText } from '../../src/engine/evidence/secret-scan/scan';
import { fakePrivateKeys, urlPasswords, vendorShapes } from '../support/fake-secrets';
import {
  count,
  gitleaksCases,
  printCounts,
  REAL,
  realFile,
  secretlintCases,
} from '../support/real-corpus';

/**
 * The credential scan measured against samples nobody on this project wrote (SOURCES.md in
 * test/fixtures/real): scanner fixtures, real HAR and Burp files, real prose about credentials.
 * Each test prints found/total; a miss outside the list below (each with its reason) fails.
 */
const KNOWN_MISSES: Record<string, string> = {
  // Identifiers, not secrets: secretlint reports them, this app does not ask to hide them.
  'secretlint/aws ng.AWS_Account_ID': 'an account id',
  'secretlint/azure ng.ad_tenant_id': 'a tenant id',
  'secretlint/azure ng.azure_client_id': 'a client id',
  // "admin:password": secretlint itself lists `username:password` as a placeholder (its
  // ok.false-positives-prevented); the literal word "password" is treated as one here.
  'secretlint/basicauth ng.basic-auth-ftps-url.txt': '"password" as the password',
  // Shapes neither secretlint's preset nor gitleaks' rules at its commit cover.
  'secretlint/figma ng.secret.txt': 'no Figma rule',
  'secretlint/grafana ng.cloud_api_token.txt': 'shorter than gitleaks’ Grafana rule',
  'secretlint/grafana ng.service_account_token.txt': 'shorter than gitleaks’ Grafana rule',
  'secretlint/secp256k1-privatekey ng.privkey.txt': 'a bare hex key with no marker',
  // gitleaks' published regex for these ends at a quote or space, not at `)`, `<`, `\"`, `,`.
  'gitleaks/huggingface #': 'token followed by a bracket or an escaped quote',
  'gitleaks/square #': 'gitleaks’ own regex rejects its sample',
  'gitleaks/curl #': 'a `--user` split across a line break and a comment',
};

function knownMiss(source: string, name: string): boolean {
  return Object.keys(KNOWN_MISSES).some((k) =>
    k.endsWith('#') ? `${source} #`.startsWith(k) : k === `${source} ${name}`,
  );
}

describe('credential scan on real samples', () => {
  it('finds what secret scanners’ own fixtures call secrets', async () => {
    expect(gitleaksRuleCount.compiled).toBe(gitleaksRuleCount.total);
    const counts = new Map<string, [number, number]>();
    const misses: string[] = [];
    for (const c of [...secretlintCases(), ...gitleaksCases()].filter((c) => c.secret)) {
      const found = await scanText(c.text, { rules: c.rules });
      count(counts, c.source, found.length > 0);
      if (found.length === 0 && !knownMiss(c.source, c.name)) misses.push(`${c.source} ${c.name}`);
      // What is found is gone after redaction.
      if (found.length > 0) expect(await scanText(redact(c.text, found))).toEqual([]);
    }
    printCounts('scanner fixtures found', counts);
    expect(misses).toEqual([]);
  });

  it('raises no alarm on scanners’ “not a secret” fixtures but the one kept on purpose', async () => {
    const alarms: string[] = [];
    const cases = secretlintCases().filter((c) => !c.secret);
    let clean = 0;
    for (const c of cases) {
      // Each fixture runs with the rule options secretlint's own test gave it (`allows`,
      // `enableIDScanRule`), as a user's `.secretlintrc.json` would.
      const found = await scanText(c.text, { rules: c.rules });
      if (found.length === 0) clean += 1;
      for (const f of found) alarms.push(`${c.source} ${c.name}: ${f.kind}`);
    }
    const must = secretlintCases().filter((c) => c.secret);
    let mustFound = 0;
    for (const c of must) if ((await scanText(c.text, { rules: c.rules })).length > 0) mustFound++;
    console.log(
      `"ok" fixtures with no alarm: ${clean}/${cases.length}; "ng" fixtures found: ${mustFound}/${must.length}\n  ${alarms.join('\n  ')}`,
    );
    // Kept on purpose: 40 bytes of random base64 assigned to `AWS_SECRET_ACCESS_KEY`. secretlint
    // passes it only because it is not 40 characters long (a comment calls it encrypted); gitleaks'
    // generic rule calls it a key, and hiding it costs a researcher nothing.
    expect(alarms).toEqual(['secretlint/aws ok.AWS_Secret_Access_Key: generic-api-key']);
  });

  it('finds every kind of fake-secrets.ts, in every place a text holds it', async () => {
    const pgp = gitleaksCases().find((c) => c.text.includes('PGP PRIVATE KEY BLOCK'));
    expect(pgp).toBeDefined();
    const secrets = [
      ...vendorShapes().map((s) => ({ kind: s.kind, value: s.secret, line: s.line })),
      ...urlPasswords().map((s) => ({ kind: 'url-password', value: s.secret, line: s.line })),
      ...fakePrivateKeys().map((k) => ({ kind: `private key ${k.name}`, value: k.pem, line: '' })),
      { kind: 'private key PGP', value: pgp?.text ?? '', line: '' },
    ];
    const placements: [string, (v: string, line: string) => string][] = [
      ['as written', (v, line) => line || v],
      ['JSON body', (v) => JSON.stringify({ data: { access_token: v } })],
      ['escaped JSON in JSON', (v) => JSON.stringify({ body: JSON.stringify({ secret: v }) })],
      ['form body, first field', (v) => `password=${encodeURIComponent(v)}&remember=1`],
      ['query string', (v) => `GET /cb?state=xyz&code=${encodeURIComponent(v)} HTTP/1.1`],
      ['header', (v) => `X-Goog-Api-Key: ${v}`],
      ['curl -H', (v) => `curl -H 'PRIVATE-TOKEN: ${v}' https://gitlab.example.com/api/v4/user`],
    ];
    const byKind = new Map<string, [number, number]>();
    const byPlace = new Map<string, [number, number]>();
    const misses: string[] = [];
    for (const s of secrets) {
      for (const [place, make] of placements) {
        // A multi-line key only goes where a multi-line value can (as written, JSON).
        if (s.value.includes('\n') && !/as written|JSON/.test(place)) continue;
        const text = `Steps to reproduce:\n\n${make(s.value, s.line)}\n\nThen reload.`;
        const findings = await scanText(text);
        const redacted = redact(text, findings);
        const leaked = [s.value, encodeURIComponent(s.value), JSON.stringify(s.value).slice(1, -1)]
          .filter((v) => v.length > 0)
          .some((v) => redacted.includes(v));
        count(byKind, s.kind, !leaked);
        count(byPlace, place, !leaked);
        if (leaked) misses.push(`${s.kind} ${place}`);
      }
    }
    printCounts('issue kinds redacted, by kind', byKind);
    printCounts('issue kinds redacted, by placement', byPlace);
    expect(misses).toEqual([]);
  });

  it('finds the session cookies of a real Chrome HAR and keeps it a HAR', async () => {
    const bytes = realFile('har', 'mitmproxy-chrome.har');
    const scan = await scanFile(bytes);
    expect(scan.format).toBe('har');
    const cookies = scan.findings.filter((f) => / cookie “/.test(f.where)).map((f) => f.where);
    for (const name of ['SID', '__Secure-1PSID', 'HSID', 'SSID', 'APISID', 'SAPISID', 'SIDCC'])
      expect(cookies).toContain(`entry 3, request cookie “${name}”`);
    const original = JSON.parse(bytes.toString('utf8')) as {
      log: { entries: { request: { cookies: { name: string; value: string }[] } }[] };
    };
    const redacted = await scan.redact(new Set(scan.findings.map((f) => f.fingerprint)));
    const har = JSON.parse(redacted.toString('utf8')) as typeof original;
    expect(har.log.entries).toHaveLength(original.log.entries.length);
    const sent = har.log.entries[2]?.request.cookies ?? [];
    expect(sent.length).toBe(original.log.entries[2]?.request.cookies.length);
    // Every cookie but analytics and preferences (`_ga`, `OGPC`) is a session's.
    for (const c of sent.filter((c) => c.value.length >= 8 && !NOT_SESSION_COOKIE.test(c.name)))
      expect([c.name, c.value]).toEqual([c.name, '[REDACTED:cookie]']);
    expect((await scanFile(redacted)).findings).toEqual([]);
    console.log(`chrome.har: ${scan.findings.length} findings, ${cookies.length} cookies`);
  });

  it('finds the api_key of a real websocket HAR in the URL and the query string', async () => {
    const scan = await scanFile(realFile('har', 'mitmproxy-websocket.har'));
    const where = scan.findings.map((f) => f.where);
    expect(where).toEqual([
      'entry 1, request URL',
      'entry 1, query field “api_key”',
      'entry 3, request URL',
      'entry 3, query field “api_key”',
    ]);
    const redacted = (
      await scan.redact(new Set(scan.findings.map((f) => f.fingerprint)))
    ).toString();
    expect(redacted).not.toContain('VCXCEuvhGcBDP7XhiJJUDvR1e1D3eiVjgZ9VRiaV');
    expect(redacted).toContain('api_key=[REDACTED:token-in-url]&notify_self');
  });

  it('decodes a real Burp export’s base64 request and re-encodes it redacted', async () => {
    const bytes = realFile('burp', 'defectdojo-one_finding_with_cwe.xml');
    const scan = await scanFile(bytes);
    expect(scan.format).toBe('burp');
    expect(scan.findings.map((f) => [f.kind, f.where])).toEqual([
      ['authorization-header', 'item 1, request, line 8'],
    ]);
    const redacted = (await scan.redact(new Set([scan.findings[0]?.fingerprint ?? '']))).toString();
    const request = /<request[^>]*><!\[CDATA\[([^\]]+)\]\]>/.exec(redacted)?.[1] ?? '';
    const decoded = Buffer.from(request, 'base64').toString('utf8');
    expect(decoded).toContain('Authorization: Bearer [REDACTED:authorization-header]\n');
    expect(decoded).toContain('Host: exemple.com');
    // Everything but the request's base64 is as it was.
    const outside = (xml: string): string => xml.replace(/(<request[^>]*><!\[CDATA\[)[^\]]+/, '$1');
    expect(outside(redacted)).toBe(outside(bytes.toString()));
  });

  it('reads prose about credentials without false alarms beyond real-looking examples', async () => {
    const dir = join(REAL, 'prose');
    const alarms: string[] = [];
    let chars = 0;
    for (const name of readdirSync(dir)) {
      const text = readFileSync(join(dir, name), 'utf8');
      chars += text.length;
      for (const f of await scanText(text, { ext: '.md' }))
        alarms.push(`${name}:${f.line} ${f.kind} ${f.preview}`);
    }
    // And sentences of an ordinary report.
    const report = [
      'To reproduce, copy the `Authorization:` header from the first request.',
      'Remove the Cookie: header first, then send it again.',
      'Authorization: Bearer <your-token>',
      'Cookie: session=REDACTED',
      'GET /reset?token=XXXXXXXX HTTP/1.1',
      'Note that the X-CSRF-Token: header is not checked.',
      'https://www.google-analytics.com/g/collect?v=2&tid=G-ABC123&sid=1700000000&sct=1',
      'Authorization: Bearer [REDACTED:jwt]',
      'password=*** and api_key=… and token=${API_TOKEN}',
      'Cookie: a=<session>; b={{csrf}}',
    ].join('\n');
    const inReport = await scanText(report, { ext: '.md' });
    console.log(
      `false alarms on ${chars} characters of real prose: ${alarms.length}\n  ${alarms.join('\n  ')}\n` +
        `on the issue's ordinary report: ${inReport.length}`,
    );
    expect(inReport).toEqual([]);
    // Left: curl's `--oauth2-bearer "mF_9.B5f-4.1JqM"` and gitleaks' README sample findings,
    // each a value shaped like a real credential.
    expect(alarms.length).toBeLessThanOrEqual(4);
  });

  it('finds credentials planted in every part of a Burp proxy export and keeps it parseable', async () => {
    const planted = vendorShapes().map((v) => v.secret);
    const b64 = (t: string): string => Buffer.from(t.replace(/\n/g, '\r\n')).toString('base64');
    const items = planted.map((secret, i) => {
      const [where, request, response] = [
        [`Cookie: session=${secret}`, '', ''],
        ['', `password=${encodeURIComponent(secret)}&user=a`, ''],
        ['', '', JSON.stringify({ refresh_token: secret })],
        [`X-Amz-Security-Token: ${secret}`, '', ''],
      ][i % 4] as [string, string, string];
      const req = `POST /login?i=${i} HTTP/1.1\nHost: app.example.com\n${where ? `${where}\n` : ''}Content-Type: application/x-www-form-urlencoded\n\n${request}`;
      const res = `HTTP/1.1 200 OK\nContent-Type: application/json\n\n${response}`;
      return `  <item>\n    <url><![CDATA[https://app.example.com/login?i=${i}]]></url>\n    <request base64="true"><![CDATA[${b64(req)}]]></request>\n    <status>200</status>\n    <response base64="true"><![CDATA[${b64(res)}]]></response>\n  </item>`;
    });
    const xml = `<?xml version="1.0"?>\n<!DOCTYPE items [\n<!ELEMENT items (item*)>\n]>\n<items burpVersion="2023.10.3" exportTime="Mon Nov 20 10:00:00 UTC 2023">\n${items.join('\n')}\n</items>\n`;
    const scan = await scanFile(Buffer.from(xml));
    expect(scan.format).toBe('burp');
    const redacted = (
      await scan.redact(new Set(scan.findings.map((f) => f.fingerprint)))
    ).toString();
    const exchanges = parseBurpXml(redacted);
    expect(exchanges).toHaveLength(planted.length);
    const decoded = (exchanges ?? []).map((e) => JSON.stringify(e)).join('\n');
    const left = planted.filter(
      (p) => decoded.includes(p) || decoded.includes(encodeURIComponent(p)),
    );
    console.log(
      `Burp export: ${planted.length - left.length}/${planted.length} planted credentials redacted`,
    );
    expect(left).toEqual([]);
  });
});
