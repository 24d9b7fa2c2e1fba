/** One event listener: where, which event, what runs. */
export type Listener = readonly [target: EventTarget, type: string, run: EventListener];

/** A listener on the document, typed by its event. */
export function onDocument<K extends keyof DocumentEventMap>(
  type: K,
  run: (event: DocumentEventMap[K]) => void,
): Listener {
  return [document, type, run as EventListener];
}

/** A listener on the window, typed by its event. */
export function onWindow<K extends keyof WindowEventMap>(
  type: K,
  run: (event: WindowEventMap[K]) => void,
): Listener {
  return [window, type, run as EventListener];
}

/** Adds the listeners; the function returned removes them all (an effect's clean-up). */
export function listen(...listeners: readonly Listener[]): () => void {
  for (const [target, type, run] of listeners) target.addEventListener(type, run);
  return () => {
    for (const [target, type, run] of listeners) target.removeEventListener(type, run);
  };
}
