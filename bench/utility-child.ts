/**
 * Node children as main starts its processes: forked with the app's serialization, and seen by
 * main's code (EngineClient, sandboxInProcess) as Electron's UtilityProcess looks to it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { EngineChild } from '../src/main/engine-client';
import type { SandboxChild } from '../src/main/sandbox-launcher';

/**
 * `entry` in a Node child: TypeScript through tsx, or a bundle as is (`tsx` false). Messages are
 * structured clones, as Electron's; `'json'` where the receiving side's heap is measured: Node
 * deserializes an `'advanced'` message through a `v8.Deserializer` whose map of every object it
 * made lives until V8 collects the deserializer, so each message since the last scavenge
 * survives it. Electron's main deserializes with a scoped one, which keeps nothing; so does JSON.
 */
export function forkChild(
  entry: string,
  env: Record<string, string> = {},
  tsx = true,
  serialization: 'advanced' | 'json' = 'advanced',
): ChildProcess {
  return fork(entry, [], {
    execArgv: tsx ? ['--import', 'tsx'] : [],
    serialization,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  });
}

/** A Node child as Electron's UtilityProcess looks to main. */
export function asUtility(child: ChildProcess): EngineChild & SandboxChild {
  const utility = {
    get pid() {
      return child.pid;
    },
    postMessage(message: unknown) {
      if (child.connected) child.send(message as object);
    },
    on(event: 'message' | 'exit', listener: (value: never) => void) {
      child.on(event, listener as (...args: unknown[]) => void);
      return utility;
    },
    kill: () => child.kill(),
  };
  return utility;
}
