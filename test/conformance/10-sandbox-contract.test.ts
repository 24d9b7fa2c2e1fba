import { describe, expect, it } from 'vitest';
import { pickAccounts, pickPrograms, writeKey } from '../support/sandbox-client';
import { Researcher, draftInput, expectError, freshAccount, ok, useSandbox, uuid } from './helpers';

// `fx.world` is read once, before any test changed the world: the seeded world.
const fx = useSandbox();

async function statuses(who: Researcher, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push((await who.me()).status);
  return out;
}

describe('Sandbox contract — control routes', () => {
  it('POST /__sandbox/reset goes back to the seeded world', async () => {
    const ready = new Researcher(fx.sb, writeKey(pickAccounts(fx.world).ready));
    const draft = await ready.draft(pickPrograms(fx.world).open.id);
    const extra = await freshAccount(fx.sb);
    await fx.sb.reset();
    expectError(await ready.get(draft.id), 404, 'not_found');
    expectError(await extra.w.me(), 401, 'unauthenticated');
    expect(await fx.sb.world()).toEqual(fx.world);
  });

  it('reset clears faults and resets the clock', async () => {
    const me = new Researcher(fx.sb, writeKey(pickAccounts(fx.world).ready));
    const open = pickPrograms(fx.world).open.id;
    const before = await me.draft(open);
    await fx.sb.clock(10 * 24 * 3600);
    const later = await me.draft(open);
    expect(Date.parse(later.created_at ?? '')).toBeGreaterThanOrEqual(
      Date.parse(before.created_at ?? '') + 10 * 24 * 3600 * 1000,
    );
    await fx.sb.faults({ rate: 1, statuses: [503] });
    await fx.sb.reset();
    const after = ok(await me.save(uuid(), draftInput(open)));
    expect(Date.parse(after.created_at ?? '')).toBeLessThan(Date.parse(later.created_at ?? ''));
  });

  it('faults are deterministic for a given seed', async () => {
    const me = await freshAccount(fx.sb);
    await fx.sb.faults({ rate: 0.5, statuses: [503, 429], seed: 42 });
    const first = await statuses(me.w, 20);
    await fx.sb.clearFaults();
    await fx.sb.faults({ rate: 0.5, statuses: [503, 429], seed: 42 });
    const second = await statuses(me.w, 20);
    await fx.sb.clearFaults();
    expect(second).toEqual(first);
    expect(first.some((s) => s !== 200)).toBe(true);
  });

  it('latency_ms delays requests; reset_connection drops them', async () => {
    const me = await freshAccount(fx.sb);
    await fx.sb.faults({ rate: 1, latency_ms: 300 });
    const started = Date.now();
    ok(await me.w.me());
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    await fx.sb.faults({ rate: 1, reset_connection: true });
    await expect(me.w.me()).rejects.toThrow();
    await fx.sb.clearFaults();
    ok(await me.w.me());
  });

  it('bad input to a control route gives 422', async () => {
    const res = await fetch(`${fx.sb.url}/__sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance_seconds: 'soon' }),
    });
    expect(res.status).toBe(422);
  });
});
