import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../src/core/engine';
import { tryLockDataDir } from '../../src/core/host/data-lock';
import { serveEngine } from '../../src/core/host/engine-host';
import { connectEngineSocket } from '../../src/core/host/engine-socket';
import type { FromEngine, ToEngine } from '../../src/core/host/protocol';
import { rawFrame } from '../../src/core/host/socket-frames';
import { engineSocketPath, TOKEN_FILE } from '../../src/core/host/socket-path';
import { KeychainSecretStore } from '../../src/core/secrets';

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
  const sent: FromEngine[] = [];
  let deliver: (message: unknown) => void = () => undefined;
  let engine: Engine | null = null;
  let exited = false;
  serveEngine(
    { postMessage: (m) => sent.push(m as FromEngine), onMessage: (l) => (deliver = l) },
    (options) => {
      engine = new Engine({
        dataDir: options.dataDir,
        secrets: new KeychainSecretStore(),
        autoStart: false,
      });
      return engine;
    },
    () => (exited = true),
    { shareDataDir: true },
  );
  const send = (message: ToEngine) => deliver(message);
  send({ type: 'init', options: { dataDir } });
  const close = async () => {
    if (exited) return;
    send({ type: 'close' });
    await until(() => exited);
  };
  closers.push(close);
  return {
    sent,
    ready: () => sent.some((m) => m.type === 'ready'),
    engine: () => {
      if (!engine) throw new Error('no engine yet');
      return engine;
    },
    close,
  };
}

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  for (let i = 0; i < ms / 10 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
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
    const dir = folder();
    const first = served(dir);
    await until(first.ready);
    const second = served(dir);
    await new Promise((r) => setTimeout(r, 400));
    expect(second.ready()).toBe(false);
    await first.close();
    await until(second.ready);
  });
});

describe("the engine's socket", () => {
  it('answers a peer that shows the token, and sends it the events', async () => {
    const dir = folder();
    const host = served(dir);
    await until(host.ready);
    if (process.platform !== 'win32') {
      expect(statSync(engineSocketPath(dir)).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, TOKEN_FILE)).mode & 0o777).toBe(0o600);
    }
    const peer = await connectEngineSocket(dir);
    if (!peer) throw new Error('no connection');
    const got: FromEngine[] = [];
    peer.onMessage((m) => got.push(m));
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
    const dir = folder();
    const host = served(dir);
    await until(host.ready);
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
});
