import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Program } from '../support/sandbox-client';
import { CONTRACT_FILE, expectSchemaMatches } from '../support/openapi-validator';
import { expectError, freshAccount, ok, useSandbox } from './helpers';

const fx = useSandbox();

interface OpenApiDoc {
  openapi: string;
  info: { version: string | number };
  paths: Record<string, unknown>;
}

describe('4. Schema route — GET /api/openapi.json', () => {
  it('returns the contract: version 1, the researcher routes only', async () => {
    const me = await freshAccount(fx.sb);
    const doc = ok(await me.r.api<OpenApiDoc>('GET', '/api/openapi.json'));
    expect(String(doc.info.version)).toBe('1');
    expect(doc.openapi).toMatch(/^3\./);
    const published = JSON.parse(readFileSync(CONTRACT_FILE, 'utf8')) as OpenApiDoc;
    expect(Object.keys(doc.paths).sort()).toEqual(Object.keys(published.paths).sort());
    for (const path of Object.keys(doc.paths)) {
      expect(path.startsWith('/api/')).toBe(true);
      expect(path).not.toMatch(/__sandbox/);
    }
  });

  it('is not among the public routes of part 5: without a token 401 unauthenticated', async () => {
    expectError(await fx.sb.api('GET', '/api/openapi.json'), 401, 'unauthenticated');
  });
});

describe('9. Versioning', () => {
  /** A GET of a path the API does not have: 404 with the contract's Error body. */
  async function expectNoRoute(path: string, token?: string) {
    const res = await fx.sb.api('GET', path, { token, validate: false });
    expect(res.status, path).toBe(404);
    expectSchemaMatches('Error', res.body);
  }

  it('paths carry no version segment: /api/v1/... gives 404', async () => {
    await expectNoRoute('/api/v1/programs');
  });

  it('a path with a trailing slash gives 404', async () => {
    const me = await freshAccount(fx.sb);
    for (const path of [
      '/api/programs/',
      '/api/me/',
      `/api/programs/${fx.open}/`,
      '/api/openapi.json/',
    ]) {
      await expectNoRoute(path, path.includes('/me') ? me.w.token : undefined);
    }
  });

  it('each program has an integer policy_version that a policy change raises; a submission records it', async () => {
    const me = await freshAccount(fx.sb);
    const before = ok(await fx.sb.api<Program>('GET', `/api/programs/${fx.open}`));
    const first = await me.w.submitted(fx.open);
    expect(first.submission?.program.policy_version).toBe(before.policy_version);
    await fx.sb.patchProgram(fx.open, { policy: { rules: 'No automated scanning. Updated.' } });
    const after = ok(await fx.sb.api<Program>('GET', `/api/programs/${fx.open}`));
    expect(after.policy_version).toBeGreaterThan(before.policy_version);
    expect(after.rules).toBe('No automated scanning. Updated.');
    const listed = ok(
      await fx.sb.api<{ programs: Program[] }>('GET', '/api/programs', { query: { limit: 50 } }),
    );
    expect(listed.programs.find((p) => p.id === fx.open)?.policy_version).toBe(
      after.policy_version,
    );
    const second = await me.w.submitted(fx.open);
    expect(second.submission?.program.policy_version).toBe(after.policy_version);
    expect(second.submission?.program.rules).toBe('No automated scanning. Updated.');
    const firstAgain = ok(await me.w.get(first.id));
    expect(firstAgain.submission?.program.policy_version).toBe(before.policy_version);
    expect(firstAgain.submission?.program.rules).toBe(before.rules);
  });
});
