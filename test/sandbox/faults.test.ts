import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Sbx } from './helpers';

async function statusSequence(sbx: Sbx, token: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await sbx.call('GET', '/api/me', { token })).status);
  return out;
}

describe('sandbox contract: fault injection', () => {
  const sbx = Sbx.perFile();
  let token: string;
  beforeAll(async () => {
    token = (await sbx.account('ada')).keys[0]?.key ?? '';
  });
  beforeEach(async () => {
    await sbx.call('DELETE', '/__sandbox/faults');
  });

  it('is deterministic for a given seed and hits about the given share', async () => {
    const config = { rate: 0.3, statuses: [503, 500], seed: 42 };
    await sbx.call('POST', '/__sandbox/faults', { body: config });
    const first = await statusSequence(sbx, token, 60);
    await sbx.call('POST', '/__sandbox/faults', { body: config });
    const second = await statusSequence(sbx, token, 60);
    expect(second).toEqual(first);
    const faulted = first.filter((s) => s !== 200).length;
    expect(faulted).toBeGreaterThan(5);
    expect(faulted).toBeLessThan(35);
    await sbx.call('POST', '/__sandbox/faults', { body: { ...config, seed: 7 } });
    expect(await statusSequence(sbx, token, 60)).not.toEqual(first);
  });

  it('sends Retry-After with 429 and 503 and the error body of part 7', async () => {
    await sbx.call('POST', '/__sandbox/faults', { body: { rate: 1, statuses: [429] } });
    const limited = await sbx.call('GET', '/api/me', { token });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'rate_limited' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    await sbx.call('POST', '/__sandbox/faults', { body: { rate: 1, statuses: [503] } });
    const busy = await sbx.call('GET', '/api/me', { token });
    expect(busy.status).toBe(503);
    expect(typeof (busy.body as { detail: unknown }).detail).toBe('string');
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('drops the connection when reset_connection is the fault', async () => {
    await sbx.call('POST', '/__sandbox/faults', {
      body: { rate: 1, statuses: [], reset_connection: true },
    });
    await expect(
      fetch(`${sbx.url}/api/me`, { headers: { authorization: `Bearer ${token}` } }),
    ).rejects.toThrow();
  });

  it('adds latency', async () => {
    await sbx.call('POST', '/__sandbox/faults', {
      body: { rate: 1, statuses: [], latency_ms: 150 },
    });
    const t0 = Date.now();
    expect((await sbx.call('GET', '/api/me', { token })).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it('leaves control routes alone, and DELETE /faults ends the faults', async () => {
    await sbx.call('POST', '/__sandbox/faults', { body: { rate: 1, statuses: [500] } });
    expect((await sbx.call('GET', '/__sandbox/world')).status).toBe(200);
    expect((await sbx.call('GET', '/api/me', { token })).status).toBe(500);
    await sbx.call('DELETE', '/__sandbox/faults');
    expect((await sbx.call('GET', '/api/me', { token })).status).toBe(200);
  });
});
