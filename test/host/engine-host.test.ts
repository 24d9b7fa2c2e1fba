import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { servedEngine, until } from './served-engine';

/**
 * The engine process's side of the protocol with a real engine (signed out, in a temporary
 * folder); the port is the only stand-in: it records what would go to main.
 */
function served() {
  const dataDir = mkdtempSync(join(tmpdir(), 'engine-host-'));
  return {
    ...servedEngine(dataDir),
    cleanup: () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

let current: ReturnType<typeof served> | null = null;
afterEach(async () => {
  if (!current) return;
  current.send({ type: 'close' });
  await until(() => current?.exited() ?? true);
  current.cleanup();
  current = null;
});

describe('engine process protocol: events', () => {
  it("sends the events of one turn as one message, and a turn's events before its result", async () => {
    current = served();
    const { sent, send, engine } = current;
    await until(() => sent.some((m) => m.type === 'ready'));
    sent.length = 0;

    // A sync writing 200 reports emits 200 changes in one turn: one message to main.
    for (let i = 0; i < 200; i++) engine().events.emit('report-changed', { reportId: `r${i}` });
    expect(sent).toEqual([]);
    await turn();
    expect(sent).toHaveLength(1);
    const [batch] = sent;
    if (batch?.type !== 'events') throw new Error(`expected events, got ${JSON.stringify(batch)}`);
    expect(batch.events.map((e) => e.name)).toEqual(Array(200).fill('report-changed'));
    expect(batch.events.map((e) => (e.payload as { reportId: string }).reportId)).toEqual(
      Array.from({ length: 200 }, (_, i) => `r${i}`),
    );

    // An event emitted before a call's answer reaches main before that answer, in order.
    sent.length = 0;
    engine().events.emit('connectivity', { state: 'offline' });
    send({ type: 'call', id: 7, name: 'getAccount', args: [] });
    await until(() => sent.some((m) => m.type === 'result'));
    expect(sent.map((m) => m.type)).toEqual(['events', 'result']);
    expect(sent[0]).toEqual({
      type: 'events',
      events: [{ name: 'connectivity', payload: { state: 'offline' } }],
    });
    expect(sent[1]).toMatchObject({ type: 'result', id: 7, ok: true, value: null });
  });

  it('an event emitted just before close still reaches main', async () => {
    current = served();
    const { sent, send, engine } = current;
    await until(() => sent.some((m) => m.type === 'ready'));
    engine().events.emit('connectivity', { state: 'online' });
    send({ type: 'close' });
    await until(() => current?.exited() ?? false);
    expect(sent.at(-1)).toEqual({
      type: 'events',
      events: [{ name: 'connectivity', payload: { state: 'online' } }],
    });
  });
});

describe('engine process protocol: calls routed by the bridge table', () => {
  async function answer(name: string, args: unknown[] = []) {
    const { sent, send } = current ?? (current = served());
    await until(() => sent.some((m) => m.type === 'ready'));
    const id = sent.length + 1000;
    send({ type: 'call', id, name: name as 'getAccount', args });
    await until(() => sent.some((m) => m.type === 'result' && m.id === id));
    const result = sent.find((m) => m.type === 'result' && m.id === id);
    if (result?.type !== 'result') throw new Error('no result');
    return result;
  }

  it("the engine's own calls answer signed out; a session group's call says nobody is signed in", async () => {
    expect(await answer('getStatus')).toMatchObject({
      ok: true,
      value: { connectivity: 'unknown' },
    });
    const saved = await answer('listReports', [{}]);
    expect(saved).toMatchObject({ ok: false, error: { name: 'NotSignedInError' } });
  });

  it('only the calls the table routes to the engine are answered: no other member, no prototype key', async () => {
    for (const name of [
      'session',
      'noteFailure',
      'close',
      'constructor',
      'toString',
      '__proto__',
    ]) {
      const result = await answer(name);
      expect(result, name).toMatchObject({ ok: false });
      if (!result.ok) expect(result.error.message, name).toContain('Unknown engine call');
    }
    // Main answers these itself, with nothing of the same name in the engine.
    for (const name of ['pickFiles', 'openExternal', 'connectSandbox']) {
      const result = await answer(name);
      if (!result.ok) expect(result.error.message, name).toContain('Unknown engine call');
      else throw new Error(`${name} reached the engine`);
    }
  });
});
