import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Program, SandboxClient } from '../support/sandbox-client';
import { openSandbox, pickPrograms } from '../support/sandbox-client';
import { CONTRACT_FILE, expectSchemaMatches } from '../support/openapi-validator';
import { expectError, freshAccount, ok } from './helpers';

let sb: SandboxClient;
let open: string;

beforeAll(async () => {
  sb = await openSandbox();
  open = pickPrograms(await sb.world()).open.id;
});
afterAll(async () => {
  await sb.close();
});

interface OpenApiDoc {
  openapi: string;
  info: { version: string | number };
  paths: Record<string, unknown>;
}

describe('4. Schema route — GET /api/openapi.json', () => {
  it('returns the contract: version 1, the researcher routes only', async () => {
    const me = await freshAccount(sb);
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
    expectError(await sb.api('GET', '/api/openapi.json'), 401, 'unauthenticated');
  });
});

describe('9. Versioning', () => {
  it('paths carry no version segment: /api/v1/... gives 404', async () => {
    const res = await sb.api('GET', '/api/v1/programs', { validate: false });
    expect(res.status).toBe(404);
    expectSchemaMatches('Error', res.body);
  });

  it('a path with a trailing slash gives 404', async () => {
    const me = await freshAccount(sb);
    for (const path of [
      '/api/programs/',
      '/api/me/',
      `/api/programs/${open}/`,
      '/api/openapi.json/',
    ]) {
      const res = await sb.api('GET', path, {
        token: path.includes('/me') ? me.w.token : undefined,
        validate: false,
      });
      expect(res.status, path).toBe(404);
      expectSchemaMatches('Error', res.body);
    }
  });

  it('each program has an integer policy_version that a policy change raises; a submission records it', async () => {
    const me = await freshAccount(sb);
    const before = ok(await sb.api<Program>('GET', `/api/programs/${open}`));
    const first = await me.w.submitted(open);
    expect(first.submission?.program.policy_version).toBe(before.policy_version);
    await sb.patchProgram(open, { policy: { rules: 'No automated scanning. Updated.' } });
    const after = ok(await sb.api<Program>('GET', `/api/programs/${open}`));
    expect(after.policy_version).toBeGreaterThan(before.policy_version);
    expect(after.rules).toBe('No automated scanning. Updated.');
    const listed = ok(
      await sb.api<{ programs: Program[] }>('GET', '/api/programs', { query: { limit: 50 } }),
    );
    expect(listed.programs.find((p) => p.id === open)?.policy_version).toBe(after.policy_version);
    const second = await me.w.submitted(open);
    expect(second.submission?.program.policy_version).toBe(after.policy_version);
    expect(second.submission?.program.rules).toBe('No automated scanning. Updated.');
    const firstAgain = ok(await me.w.get(first.id));
    expect(firstAgain.submission?.program.policy_version).toBe(before.policy_version);
    expect(firstAgain.submission?.program.rules).toBe(before.rules);
  });
});
