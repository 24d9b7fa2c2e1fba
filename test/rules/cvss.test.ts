import { describe, expect, it } from 'vitest';
import {
  CVSS31_BASE_METRICS,
  cvssSeverity,
  isValidCvss31Vector,
  parseCvss31,
} from '../../src/shared/rules/index';

// Worked examples of the FIRST "CVSS v3.1 Examples" document (https://www.first.org/cvss/v3.1/examples).
const FIRST_EXAMPLES: [string, string, number][] = [
  ['CVE-2013-1937 phpMyAdmin reflected XSS', 'AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N', 6.1],
  ['CVE-2013-0375 MySQL stored SQL injection', 'AV:N/AC:L/PR:L/UI:N/S:C/C:L/I:L/A:N', 6.4],
  ['CVE-2014-3566 SSLv3 POODLE', 'AV:N/AC:H/PR:N/UI:R/S:U/C:L/I:N/A:N', 3.1],
  ['CVE-2012-1516 VMware guest to host escape', 'AV:N/AC:L/PR:L/UI:N/S:C/C:H/I:H/A:H', 9.9],
  ['CVE-2009-0783 Apache Tomcat XML parser', 'AV:L/AC:L/PR:H/UI:N/S:U/C:L/I:L/A:L', 4.2],
  ['CVE-2012-0384 Cisco IOS command execution', 'AV:N/AC:L/PR:H/UI:N/S:U/C:H/I:H/A:H', 7.2],
  ['CVE-2015-1098 Apple iWork denial of service', 'AV:L/AC:L/PR:N/UI:R/S:U/C:H/I:H/A:H', 7.8],
  ['CVE-2014-0160 OpenSSL Heartbleed', 'AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N', 7.5],
  ['CVE-2014-6271 GNU Bash Shellshock', 'AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 9.8],
  ['CVE-2008-1447 DNS Kaminsky bug', 'AV:N/AC:H/PR:N/UI:N/S:C/C:N/I:H/A:N', 6.8],
  ['CVE-2014-2005 Sophos login screen bypass', 'AV:P/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 6.8],
  ['CVE-2010-0467 Joomla directory traversal', 'AV:N/AC:L/PR:N/UI:N/S:C/C:L/I:N/A:N', 5.8],
  ['CVE-2012-1342 Cisco access control bypass', 'AV:N/AC:L/PR:N/UI:N/S:C/C:N/I:L/A:N', 5.8],
  ['CVE-2013-6014 Juniper proxy ARP denial of service', 'AV:A/AC:L/PR:N/UI:N/S:C/C:H/I:N/A:H', 9.3],
  ['CVE-2014-9253 DokuWiki reflected XSS', 'AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N', 5.4],
  ['CVE-2009-0658 Adobe Acrobat buffer overflow', 'AV:L/AC:L/PR:N/UI:R/S:U/C:H/I:H/A:H', 7.8],
  ['CVE-2011-1265 Microsoft Windows Bluetooth RCE', 'AV:A/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 8.8],
  ['CVE-2014-2019 Apple iOS security control bypass', 'AV:P/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:N', 4.6],
  ['CVE-2015-0970 SearchBlox CSRF', 'AV:N/AC:L/PR:N/UI:R/S:U/C:H/I:H/A:H', 8.8],
  ['CVE-2014-0224 OpenSSL CCS injection', 'AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N', 7.4],
  ['CVE-2012-5376 Google Chrome sandbox bypass', 'AV:N/AC:L/PR:N/UI:R/S:C/C:H/I:H/A:H', 9.6],
  ['CVE-2016-0128 Badlock', 'AV:N/AC:H/PR:N/UI:R/S:U/C:H/I:H/A:N', 6.8],
  ['CVE-2016-5729 Lenovo ThinkPwn', 'AV:L/AC:L/PR:H/UI:N/S:C/C:H/I:H/A:H', 8.2],
  ['CVE-2018-3652 Intel DCI', 'AV:P/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H', 7.6],
];

describe('parseCvss31: FIRST v3.1 examples', () => {
  it.each(FIRST_EXAMPLES)('%s (%s) scores %d', (_name, metrics, score) => {
    const result = parseCvss31(`CVSS:3.1/${metrics}`);
    expect(result).toMatchObject({ ok: true, baseScore: score, severity: cvssSeverity(score) });
  });

  it('returns the metrics and the vector in the preferred order', () => {
    const result = parseCvss31('CVSS:3.1/S:U/AV:N/AC:L/PR:H/UI:N/C:L/I:L/A:N');
    expect(result).toEqual({
      ok: true,
      vector: 'CVSS:3.1/AV:N/AC:L/PR:H/UI:N/S:U/C:L/I:L/A:N',
      metrics: { AV: 'N', AC: 'L', PR: 'H', UI: 'N', S: 'U', C: 'L', I: 'L', A: 'N' },
      baseScore: 3.8,
      severity: 'low',
    });
  });
});

describe('parseCvss31: edge scores', () => {
  it('no impact scores 0.0 (severity none) in both scopes', () => {
    expect(parseCvss31('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N')).toMatchObject({
      ok: true,
      baseScore: 0,
      severity: 'none',
    });
    expect(parseCvss31('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:N/I:N/A:N')).toMatchObject({
      baseScore: 0,
    });
  });
  it('caps at 10.0', () => {
    expect(parseCvss31('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H')).toMatchObject({
      baseScore: 10,
      severity: 'critical',
    });
  });
  it('uses the changed-scope PR weights', () => {
    expect(parseCvss31('CVSS:3.1/AV:N/AC:L/PR:H/UI:N/S:C/C:H/I:H/A:H')).toMatchObject({
      baseScore: 9.1,
    });
  });
});

// The specification's formula (section 7.1) with the Roundup of Appendix A, written out here to
// check the library on every one of the 2592 base vectors.
function roundup(x: number): number {
  const n = Math.round(x * 100000);
  return n % 10000 === 0 ? n / 100000 : (Math.floor(n / 10000) + 1) / 10;
}
function specScore(m: Record<string, string>): number {
  const changed = m.S === 'C';
  const av = { N: 0.85, A: 0.62, L: 0.55, P: 0.2 }[m.AV as 'N'];
  const ac = { L: 0.77, H: 0.44 }[m.AC as 'L'];
  const pr = changed
    ? { N: 0.85, L: 0.68, H: 0.5 }[m.PR as 'N']
    : { N: 0.85, L: 0.62, H: 0.27 }[m.PR as 'N'];
  const ui = { N: 0.85, R: 0.62 }[m.UI as 'N'];
  const cia = (v: string | undefined) => ({ H: 0.56, L: 0.22, N: 0 })[v as 'H'];
  const iss = 1 - (1 - cia(m.C)) * (1 - cia(m.I)) * (1 - cia(m.A));
  const impact = changed ? 7.52 * (iss - 0.029) - 3.25 * (iss - 0.02) ** 15 : 6.42 * iss;
  const exploitability = 8.22 * av * ac * pr * ui;
  if (impact <= 0) return 0;
  return changed
    ? roundup(Math.min(1.08 * (impact + exploitability), 10))
    : roundup(Math.min(impact + exploitability, 10));
}

describe('parseCvss31: the library agrees with the specification formula', () => {
  it('roundup follows Appendix A', () => {
    expect(roundup(4.02)).toBe(4.1);
    expect(roundup(4.0)).toBe(4.0);
    expect(roundup(0.1 + 0.2)).toBe(0.3);
  });

  it('on all 2592 base vectors', () => {
    let combos: Record<string, string>[] = [{}];
    for (const def of CVSS31_BASE_METRICS) {
      combos = combos.flatMap((c) => def.values.map((v) => ({ ...c, [def.metric]: v })));
    }
    expect(combos).toHaveLength(2592);
    const mismatches: string[] = [];
    for (const m of combos) {
      const vector = `CVSS:3.1/${CVSS31_BASE_METRICS.map((d) => `${d.metric}:${m[d.metric]}`).join('/')}`;
      const result = parseCvss31(vector);
      const expected = specScore(m);
      if (!result.ok || result.baseScore !== expected) {
        mismatches.push(`${vector}: ${result.ok ? result.baseScore : result.error} != ${expected}`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});

describe('parseCvss31: invalid vectors', () => {
  const base = 'AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H';
  it.each([
    ['', 'empty vector'],
    [base, 'missing prefix CVSS:3.1/'],
    [`CVSS:3.0/${base}`, 'unsupported version'],
    [`CVSS:4.0/${base}`, 'unsupported version'],
    [`cvss:3.1/${base}`, 'missing prefix'],
    ['CVSS:3.1/', 'empty metric'],
    ['CVSS:3.1/AV:N/PR:N/UI:N/S:U/C:H/I:H/A:H', 'missing metric AC'],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H', 'missing metric A'],
    ['CVSS:3.1/AV:X/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 'unknown value X for AV'],
    ['CVSS:3.1/AV:/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 'unknown value (empty) for AV'],
    ['CVSS:3.1/AV:n/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 'unknown value n for AV'],
    ['CVSS:3.1/av:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 'unknown metric av'],
    [`CVSS:3.1/${base}/XX:Y`, 'unknown metric XX'],
    ['CVSS:3.1/AV:N/AV:L/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 'metric AV appears more than once'],
    [`CVSS:3.1/${base}/AV:N`, 'metric AV appears more than once'],
    ['CVSS:3.1/AVN/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 'malformed metric "AVN"'],
    ['CVSS:3.1/AV:N:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 'malformed metric'],
    [`CVSS:3.1/${base}/`, 'empty metric'],
    [`CVSS:3.1//${base}`, 'empty metric'],
    [`CVSS:3.1/${base}/E:F`, 'temporal/environmental metric E is not allowed'],
    [`CVSS:3.1/${base}/RL:X`, 'temporal/environmental metric RL'],
    [`CVSS:3.1/${base}/MAV:L`, 'temporal/environmental metric MAV'],
    [` CVSS:3.1/${base}`, 'missing prefix'],
    [`CVSS:3.1/${base} `, 'unknown value H  for A'],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:X/C:H/I:H/A:H', 'unknown value X for S'],
    ['AV:N/AC:L/Au:N/C:P/I:P/A:P', 'missing prefix'],
  ])('%j is rejected: %s', (vector, message) => {
    const result = parseCvss31(vector);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain(message);
    expect(isValidCvss31Vector(vector)).toBe(false);
  });

  it('does not throw on a non-string at run time', () => {
    expect(parseCvss31(undefined as unknown as string).ok).toBe(false);
  });

  it('accepts valid vectors', () => {
    expect(isValidCvss31Vector(`CVSS:3.1/${base}`)).toBe(true);
    expect(isValidCvss31Vector('CVSS:3.1/A:H/I:H/C:H/S:U/UI:N/PR:N/AC:L/AV:N')).toBe(true);
  });
});

describe('cvssSeverity', () => {
  it.each([
    [0, 'none'],
    [0.1, 'low'],
    [3.9, 'low'],
    [4, 'medium'],
    [6.9, 'medium'],
    [7, 'high'],
    [8.9, 'high'],
    [9, 'critical'],
    [10, 'critical'],
    [Number.NaN, 'none'],
  ])('%d is %s', (score, severity) => {
    expect(cvssSeverity(score)).toBe(severity);
  });
});
