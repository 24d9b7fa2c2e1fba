import type { IpcMainInvokeEvent } from 'electron';
import {
  BRIDGE_CALLS,
  BRIDGE_EVENTS,
  DROP_CHANNEL,
  callChannel,
  type BridgeCallName,
  type BridgeCalls,
  type BridgeEventName,
  type BridgeEvents,
  type BridgeResult,
} from '@shared/bridge/contract';
import { BridgeInputError, toBridgeError } from './errors';
import type { FileTokens } from './file-tokens';
import { isTrustedSender } from './security';
import { validateArgs } from './validate-args';

/** The part of `ipcMain` the bridge uses. */
export interface IpcMainLike {
  handle(
    channel: string,
    listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>,
  ): void;
  removeHandler(channel: string): void;
}

export interface RegisterBridgeOptions {
  ipcMain: IpcMainLike;
  /** The `file:` URL of the bundled renderer page: the only trusted sender. */
  rendererUrl: string;
  calls: BridgeCalls;
  /** Where a dropped file's path, sent by the preload, becomes a token for the page. */
  files: FileTokens;
  /** Calls wait for this (the account restored at start) before they reach the engine. */
  ready?: Promise<unknown>;
  /** Told about failures (without the key: messages are already redacted). */
  onError?: (
    name: BridgeCallName | 'tokenForFile',
    error: ReturnType<typeof toBridgeError>,
  ) => void;
}

/**
 * One `ipcMain.handle` per declared bridge call, and one for the preload's dropped files. Each
 * checks the sender frame, then the shape of every argument, and only then calls the handler; the
 * answer is a BridgeResult so errors cross as plain data. Returns a function that removes them.
 */
export function registerBridge(options: RegisterBridgeOptions): () => void {
  const { ipcMain, rendererUrl, calls } = options;
  const handle = (
    channel: string,
    name: BridgeCallName | 'tokenForFile',
    answer: (args: unknown[]) => Promise<unknown>,
  ): void => {
    ipcMain.handle(channel, async (event, ...args): Promise<BridgeResult> => {
      try {
        if (!isTrustedSender(event.senderFrame, rendererUrl)) {
          throw new BridgeInputError('This call is only accepted from the app window.');
        }
        return { ok: true, value: await answer(args) };
      } catch (error) {
        const plain = toBridgeError(error);
        options.onError?.(name, plain);
        return { ok: false, error: plain };
      }
    });
  };
  for (const name of BRIDGE_CALLS) {
    handle(callChannel(name), name, async (args) => {
      const valid = validateArgs(name, args);
      await options.ready;
      const call = calls[name] as (...a: unknown[]) => Promise<unknown>;
      return call(...valid);
    });
  }
  // Only the preload sends here: the path of a File the user dropped (webUtils.getPathForFile).
  handle(DROP_CHANNEL, 'tokenForFile', async ([path, ...rest]) => {
    if (typeof path !== 'string' || rest.length > 0) {
      throw new BridgeInputError('tokenForFile: expects the path of a dropped file', 'file');
    }
    return options.files.register(path);
  });
  return () => {
    for (const name of BRIDGE_CALLS) ipcMain.removeHandler(callChannel(name));
    ipcMain.removeHandler(DROP_CHANNEL);
  };
}

/** Where events go: the window's `webContents.send`, when there is a window. */
export type EventSink = <E extends BridgeEventName>(event: E, payload: BridgeEvents[E]) => void;

export interface EventSource {
  on<E extends BridgeEventName>(event: E, listener: (payload: BridgeEvents[E]) => void): () => void;
}

/** Forwards every declared engine event to the renderer unchanged. Returns an unsubscribe. */
export function forwardEvents(source: EventSource, sink: EventSink): () => void {
  const offs = BRIDGE_EVENTS.map((name) =>
    source.on(name, (payload) => sink(name, payload as BridgeEvents[typeof name])),
  );
  return () => offs.forEach((off) => off());
}
