import { useEffect, useRef } from 'react';

/** App-wide commands from shortcuts and main's menu; screens subscribe to the ones they serve. */
export type CommandName =
  'new-report' | 'save-now' | 'send-reply' | 'sync-now' | 'focus-search' | 'toggle-theme';

type Handler = () => void;
const handlers = new Map<CommandName, Set<Handler>>();

/** Runs the handlers of a command; returns whether any screen handled it. */
export function emitCommand(name: CommandName): boolean {
  const set = handlers.get(name);
  if (!set || set.size === 0) return false;
  for (const h of [...set]) h();
  return true;
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
