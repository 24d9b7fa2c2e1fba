import { beforeAll, describe, expect, it } from 'vitest';
import { Sbx } from './helpers';

describe('sandbox contract: library entry and HTTP basics', () => {
  const sbx = Sbx.perFile();
  let write: string;
  beforeAll(async () => {
    write = (await sbx.account('ada')).keys.find((k) => k.scope === 'write')?.key ?? '';
  });

  it('startSandbox resolves to a loopback url on a free port', () => {
    expect(sbx.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sbx.handle.port).toBeGreaterThan(0);
  });

  it('puts X-Request-ID on every response: success, errors and control routes', async () => {
    const responses = await Promise.all([
      sbx.call('GET', '/api/me', { token: write }),
      sbx.call('GET', '/api/me'),
      sbx.call('GET', '/api/nothing-here'),
      sbx.call('GET', '/__sandbox/world'),
    ]);
    const ids = responses.map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/\S+/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('answers a path with a trailing slash with 404 not_found', async () => {
    const res = await sbx.call('GET', '/api/me/', { token: write });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'not_found' });
    expect((await sbx.call('GET', '/api/reports/', { token: write })).status).toBe(404);
  });

  it('answers a wrong method on a known path with 405 invalid_state and Allow', async () => {
    const res = await sbx.call('DELETE', '/api/me', { token: write });
    expect(res.status).toBe(405);
    expect(res.body).toMatchObject({ code: 'invalid_state' });
    expect(res.headers.get('allow')).toBe('GET');
  });

  it('serves the contract at /api/openapi.json (with a token)', async () => {
    const res = await sbx.call<{ openapi: string; info: { version: string } }>(
      'GET',
      '/api/openapi.json',
      { token: write },
    );
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\.1/);
    expect(res.body.info.version).toBe('1');
  });

  it('gives 401 for an empty or invalid Authorization header even on public routes', async () => {
    const empty = await fetch(`${sbx.url}/api/programs`, { headers: { authorization: '' } });
    expect(empty.status).toBe(401);
    const invalid = await sbx.call('GET', '/api/programs', { token: 'sbx_nope' });
    expect(invalid.status).toBe(401);
    expect(invalid.body).toMatchObject({ code: 'unauthenticated' });
    expect((await sbx.call('GET', '/api/programs')).status).toBe(200);
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await fetch(`${sbx.url}/api/me`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${write}` },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('close() stops accepting connections', async () => {
    const other = await Sbx.start();
    const url = other.url;
    await other.close();
    await expect(fetch(`${url}/__sandbox/world`)).rejects.toThrow();
  });
});
