/**
 * The engine's local socket: while a process holds the data folder (the app's engine, or one the
 * command line started), other processes of the same user reach that one engine through it,
 * with the protocol main uses (calls, results, events), instead of opening the mirror themselves.
 *
 * Who may call: the socket is a file of mode 0600 in the data folder (a named pipe on Windows),
 * and a peer's first frame must be the writer's token, a random value in a file only the
 * folder's owner can read. Nothing a peer sends is deserialized before that.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { encodeFrame, FrameReader, rawFrame } from './socket-frames';
import { engineSocketPath, TOKEN_FILE } from './socket-path';
import type { FromEngine, ToEngine } from './protocol';

export type CallMessage = Extract<ToEngine, { type: 'call' }>;

export interface EngineSocketServer {
  readonly path: string;
  /** Sends a message (the events of a turn) to every peer. */
  broadcast(message: FromEngine): void;
  /**
   * Resolves once no peer is connected; from then on it takes no new one (the token file goes, a
   * peer still showing it is turned away). Until then a command that connects is served too: it
   * would otherwise only wait for the folder's lock, which this engine holds. `close` is still
   * needed after.
   */
  drain(): Promise<void>;
  /** How many peers it answers now. */
  readonly peerCount: number;
  close(): void;
}

/**
 * Listens for peers of `dataDir`'s engine. Only the lock holder calls this: a socket file left by
 * a writer that died is removed first.
 */
export async function listenEngineSocket(
  dataDir: string,
  onCall: (message: CallMessage, reply: (message: FromEngine) => void) => void,
): Promise<EngineSocketServer> {
  const path = engineSocketPath(dataDir);
  const token = randomBytes(32).toString('hex');
  const tokenFile = join(dataDir, TOKEN_FILE);
  const peers = new Set<Socket>();
  /** Closing and no peer left: nobody new is let in. */
  let shut = false;
  let draining = false;
  const windows = process.platform === 'win32';
  if (!windows) rmSync(path, { force: true });
  const server = createServer((socket) => {
    let trusted = false;
    socket.on('error', () => undefined);
    socket.on('close', () => {
      peers.delete(socket);
      if (peers.size === 0 && draining) stopTaking();
    });
    const send = (message: FromEngine): void => {
      if (!socket.destroyed) socket.write(encodeFrame(message));
    };
    const reader = new FrameReader(
      (hello) => {
        const expected = Buffer.from(token);
        trusted = hello.length === expected.length && timingSafeEqual(hello, expected);
        // An engine that closes once its last peer left takes no new one: that command starts
        // an engine of its own, which waits for the folder's lock.
        if (!trusted || shut) return void socket.destroy();
        peers.add(socket);
        send({ type: 'ready' });
      },
      (raw) => {
        const message = raw as ToEngine;
        // A peer may only call: starting or closing the engine is its owner's.
        if (trusted && message?.type === 'call') onCall(message, send);
      },
    );
    socket.on('data', (chunk: Buffer) => {
      try {
        reader.push(chunk);
      } catch {
        socket.destroy();
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  if (!windows) chmodSync(path, 0o600);
  // Written once the socket answers: a peer that reads this token finds someone to show it to.
  const pending = `${tokenFile}.${process.pid}`;
  writeFileSync(pending, token, { mode: 0o600 });
  renameSync(pending, tokenFile);
  let stopTaking: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    stopTaking = () => {
      if (shut) return resolve();
      shut = true;
      forgetToken();
      server.close(); // stops listening
      resolve();
    };
  });
  const forgetToken = (): void => {
    try {
      if (readFileSync(tokenFile, 'utf8') === token) rmSync(tokenFile, { force: true });
    } catch {
      // already gone
    }
  };
  return {
    path,
    broadcast(message) {
      const frame = encodeFrame(message);
      for (const peer of peers) if (!peer.destroyed) peer.write(frame);
    },
    get peerCount() {
      return peers.size;
    },
    drain() {
      draining = true;
      if (peers.size === 0) stopTaking();
      return stopped;
    },
    close() {
      shut = true;
      for (const peer of peers) peer.destroy();
      if (server.listening) server.close();
      forgetToken();
    },
  };
}

/** A connection to the engine that holds a data folder. */
export interface EngineSocketClient {
  onMessage(listener: (message: FromEngine) => void): void;
  onClose(listener: () => void): void;
  send(message: CallMessage): void;
  close(): void;
}

/**
 * Connects to the engine of `dataDir`, or answers null when none listens (no token, no socket, or
 * a socket left by a writer that ended). Resolves once the engine accepted the token.
 */
export async function connectEngineSocket(
  dataDir: string,
  timeoutMs = 2_000,
): Promise<EngineSocketClient | null> {
  let token: Buffer;
  try {
    token = readFileSync(join(dataDir, TOKEN_FILE));
  } catch {
    return null;
  }
  const socket = createConnection(engineSocketPath(dataDir));
  const listeners: ((message: FromEngine) => void)[] = [];
  const closers: (() => void)[] = [];
  return new Promise((resolve) => {
    let settled = false;
    const settle = (client: EngineSocketClient | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!client) socket.destroy();
      resolve(client);
    };
    const timer = setTimeout(() => settle(null), timeoutMs);
    const client: EngineSocketClient = {
      onMessage: (listener) => void listeners.push(listener),
      onClose: (listener) => void closers.push(listener),
      send: (message) => void socket.write(encodeFrame(message)),
      close: () => socket.end(),
    };
    const reader = new FrameReader(null, (raw) => {
      const message = raw as FromEngine;
      if (!settled) return settle(message.type === 'ready' ? client : null);
      for (const listener of listeners) listener(message);
    });
    socket.on('connect', () => socket.write(rawFrame(token)));
    socket.on('data', (chunk: Buffer) => {
      try {
        reader.push(chunk);
      } catch {
        socket.destroy();
      }
    });
    socket.on('error', () => settle(null));
    socket.on('close', () => {
      settle(null);
      for (const closer of closers) closer();
    });
  });
}
