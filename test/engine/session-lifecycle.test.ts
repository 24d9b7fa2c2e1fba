import { randomUUID } from '../support/random';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../support/wait';
import { openHarness, type Harness } from './harness';

/**
 * The engine's event bus outlives each signed-in session. A session that ended (sign-out, or a
 * new sign-in) must leave nothing listening on it: its mirror is closed.
 */
describe('engine: a session that ended leaves no listener behind', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await openHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('events after a sign-out and a new sign-in reach only the live session', async () => {
    await h.engine.connect({ serverUrl: h.sandbox.url, apiKey: h.key });
    await h.engine.signOut();
    await h.engine.connect({ serverUrl: h.sandbox.url, apiKey: h.key });
    const statuses: number[] = [];
    const off = h.engine.events.on('status', (s) => statuses.push(s.unsent));
    expect(() => h.engine.events.emit('report-changed', { reportId: randomUUID() })).not.toThrow();
    // The live session answers a burst of changes with one status, on the next turn.
    h.engine.events.emit('report-changed', { reportId: randomUUID() });
    await new Promise((resolve) => setImmediate(resolve));
    off();
    expect(statuses).toHaveLength(1);
  });

  it('a second open keeps the one running session: main restores the account the engine opened', async () => {
    await h.engine.connect({ serverUrl: h.sandbox.url, apiKey: h.key });
    await h.restart();
    const first = h.engine.session;
    const again = await h.engine.open();
    expect(again?.serverUrl).toBe(h.sandbox.url);
    expect(h.engine.session).toBe(first);
    // Two sessions would both answer a burst of changes (and both send what is queued). The
    // start's own sync and outbox run first, so their statuses are not counted as the burst's.
    await h.engine.session.drain();
    await waitUntil('the start sync to end', () => !h.engine.session.getStatus().syncing);
    await new Promise((resolve) => setImmediate(resolve));
    const statuses: number[] = [];
    const off = h.engine.events.on('status', (s) => statuses.push(s.unsent));
    h.engine.events.emit('report-changed', { reportId: randomUUID() });
    h.engine.events.emit('report-changed', { reportId: randomUUID() });
    await new Promise((resolve) => setImmediate(resolve));
    off();
    expect(statuses).toHaveLength(1);
  });
});
