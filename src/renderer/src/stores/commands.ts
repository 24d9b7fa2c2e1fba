import { useEffect, useRef } from 'react';

/** App-wide commands from shortcuts and main's menu; screens subscribe to the ones they serve. */
export type CommandName =
  'new-report' | 'save-now' | 'send-reply' | 'sync-now' | 'focus-search' | 'toggle-theme';

/** A handler returns its work's promise when a caller may wait for it (a save before a read). */
type Handler = () => unknown;
const handlers = new Map<CommandName, Set<Handler>>();

/**
 * Runs the handlers of a command: `handled` says whether any screen serves it, and `done`
 * settles when their work has (a failure is the handler's to show, so it does not reject).
 */
export function emitCommand(name: CommandName): { handled: boolean; done: Promise<void> } {
  const set = handlers.get(name);
  if (!set || set.size === 0) return { handled: false, done: Promise.resolve() };
  const work = [...set].map((h) => h());
  return { handled: true, done: Promise.allSettled(work).then(() => undefined) };
}

export function useCommand(name: CommandName, handler: Handler): void {
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => {
    const wrapped: Handler = () => ref.current();
    let set = handlers.get(name);
    if (!set) handlers.set(name, (set = new Set()));
    set.add(wrapped);
    return () => {
      set.delete(wrapped);
    };
  }, [name]);
}
