import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tryLockDataDir } from '../../src/engine/host/data-lock';
import { connectEngineSocket, type EngineSocketClient } from '../../src/engine/host/engine-socket';
import type { FromEngine } from '../../src/engine/host/protocol';
import { rawFrame } from '../../src/engine/host/socket-frames';
import { engineSocketPath, TOKEN_FILE } from '../../src/engine/host/socket-path';
import { servedEngine, until } from './served-engine';

/**
 * One data folder, one writer: the engine takes the folder's lock before its mirror opens and
 * answers the same user's other processes on its socket. Real engines (signed out) in temporary
 * folders; the port to main is the only stand-in.
 */
const folders: string[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'data-folder-'));
  folders.push(dir);
  return dir;
}

function served(dataDir: string) {
  const host = servedEngine(dataDir, { shareDataDir: true });
  const close = async () => {
    if (host.exited()) return;
    host.send({ type: 'close' });
    await until(host.exited);
  };
  closers.push(close);
  return { ...host, close };
}

/** An engine served on a new folder, once it has said it is ready. */
async function servedReady() {
  const dir = folder();
  const host = served(dir);
  await until(host.ready);
  return { dir, host };
}

/** A peer on the engine's socket and every message it has received so far; `refused` is the
 * failure said when the engine turns it away. */
async function connectedPeer(
  dir: string,
  refused: string,
): Promise<{ peer: EngineSocketClient; got: FromEngine[] }> {
  const peer = await connectEngineSocket(dir);
  if (!peer) throw new Error(refused);
  const got: FromEngine[] = [];
  peer.onMessage((m) => got.push(m));
  return { peer, got };
}

describe("the data folder's writer lock", () => {
  it('is held by one holder at a time and free again once released', () => {
    const dir = folder();
    const first = tryLockDataDir(dir);
    expect(first).not.toBeNull();
    expect(tryLockDataDir(dir)).toBeNull();
    first?.release();
    const second = tryLockDataDir(dir);
    expect(second).not.toBeNull();
    second?.release();
  });

  it('a second engine on the same folder waits for the first to close before it opens', async () => {
    const { dir, host: first } = await servedReady();
    const second = served(dir);
    await new Promise((r) => setTimeout(r, 400));
    expect(second.ready()).toBe(false);
    await first.close();
    await until(second.ready);
  });
});

describe("the engine's socket", () => {
  it('answers a peer that shows the token, and sends it the events', async () => {
    const { dir, host } = await servedReady();
    if (process.platform !== 'win32') {
      expect(statSync(engineSocketPath(dir)).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, TOKEN_FILE)).mode & 0o777).toBe(0o600);
    }
    const { peer, got } = await connectedPeer(dir, 'no connection');
    peer.send({ type: 'call', id: 1, name: 'getStatus', args: [] });
    await until(() => got.some((m) => m.type === 'result'));
    expect(got.find((m) => m.type === 'result')).toMatchObject({
      id: 1,
      ok: true,
      value: { connectivity: 'unknown' },
    });
    host.engine().events.emit('report-changed', { reportId: 'r1' });
    await until(() => got.some((m) => m.type === 'events'));
    expect(got.find((m) => m.type === 'events')).toEqual({
      type: 'events',
      events: [{ name: 'report-changed', payload: { reportId: 'r1' } }],
    });
    // Main hears the same event: the window and the command see one engine.
    expect(host.sent.some((m) => m.type === 'events')).toBe(true);
    peer.close();
  });

  it('closes on a peer with a wrong token, and a stale token file finds nobody', async () => {
    const { dir, host } = await servedReady();
    const socket = createConnection(engineSocketPath(dir));
    const closed = new Promise<string>((resolve) => {
      let data = '';
      socket.on('data', (d: Buffer) => (data += d.toString('hex')));
      socket.on('close', () => resolve(data));
      socket.on('error', () => undefined);
    });
    socket.on('connect', () => socket.write(rawFrame(Buffer.from('0'.repeat(64)))));
    expect(await closed).toBe('');
    await host.close();
    // The writer removed its token on the way out; a token left by a killed one leads nowhere.
    expect(await connectEngineSocket(dir)).toBeNull();
    writeFileSync(join(dir, TOKEN_FILE), 'f'.repeat(64));
    expect(await connectEngineSocket(dir, 500)).toBeNull();
  });

  it('a closing engine serves its peers until the last one leaves, then takes none and exits', async () => {
    const { dir, host } = await servedReady();
    const { peer, got } = await connectedPeer(dir, 'no connection');
    // The peer's call stays in progress until the test lets it go (a long upload, say).
    const engine = host.engine();
    const answer = engine.getStatus.bind(engine);
    let entered = false;
    let letGo: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    engine.getStatus = async () => {
      entered = true;
      await held;
      return answer();
    };
    peer.send({ type: 'call', id: 7, name: 'getStatus', args: [] });
    await until(() => entered);

    // The owner (the command that started this engine) is done and closes it.
    host.send({ type: 'close', waitForPeers: true });
    await until(() => host.sent.some((m) => m.type === 'waiting-for-peers'));
    expect(host.sent.find((m) => m.type === 'waiting-for-peers')).toEqual({
      type: 'waiting-for-peers',
      peers: 1,
    });
    expect(tryLockDataDir(dir)).toBeNull();
    // A command starting meanwhile is served too (an engine of its own would only wait for the
    // lock this one holds).
    const { peer: late, got: lateGot } = await connectedPeer(
      dir,
      'a command starting while the engine waits was turned away',
    );
    late.send({ type: 'call', id: 1, name: 'outboxSummary', args: [] });
    await until(() => lateGot.some((m) => m.type === 'result'));
    expect(lateGot.find((m) => m.type === 'result')).toMatchObject({ id: 1, ok: true });
    late.close();

    letGo();
    await until(() => got.some((m) => m.type === 'result'));
    expect(got.find((m) => m.type === 'result')).toMatchObject({
      id: 7,
      ok: true,
      value: { connectivity: 'unknown' },
    });
    // Still there for the peer's next call, until it disconnects.
    peer.send({ type: 'call', id: 8, name: 'getStatus', args: [] });
    await until(() => got.some((m) => m.type === 'result' && m.id === 8));
    expect(host.exited()).toBe(false);

    peer.close();
    await until(host.exited);
    expect(host.sent.some((m) => m.type === 'peers-gone')).toBe(true);
    // Once the last peer left, a command starting finds no engine to join: it starts its own.
    expect(await connectEngineSocket(dir, 500)).toBeNull();
    const next = tryLockDataDir(dir);
    expect(next).not.toBeNull();
    next?.release();
  });

  it('closes at once when asked to wait for peers and none is connected', async () => {
    const { dir, host } = await servedReady();
    host.send({ type: 'close', waitForPeers: true });
    await until(host.exited);
    expect(host.sent.some((m) => m.type === 'waiting-for-peers')).toBe(false);
    expect(await connectEngineSocket(dir, 500)).toBeNull();
  });
});
