import type { Page } from 'playwright-core';

/** A bridge call the page made: its channel (`bridge:call:getReport`) and first argument. */
export interface Invoked {
  channel: string;
  first: unknown;
  /** When the page made it (its `performance.now()`). */
  at: number;
}

interface WireGlobals {
  __electronInvokeWire(channel: string, args: unknown[]): Promise<string>;
  __invoked: Invoked[];
  __held: { pattern: RegExp | null; waiting: (() => void)[] };
}

export interface Invokes {
  /** The calls made since `watchInvokes`, in order. */
  made(): Promise<Invoked[]>;
  /** How many calls of `name` (the bridge's call name) were made. */
  count(name: string): Promise<number>;
  /** Answers the held calls, and holds none from now on. */
  release(): Promise<void>;
}

/** Wraps the page's IPC binding (run in the page). */
function wrapWire({ source, flags }: { source: string | null; flags: string }): void {
  const g = globalThis as unknown as WireGlobals;
  const wire = g.__electronInvokeWire.bind(g);
  g.__invoked = [];
  g.__held = { pattern: source === null ? null : new RegExp(source, flags), waiting: [] };
  g.__electronInvokeWire = async (channel, args) => {
    g.__invoked.push({ channel, first: args[0], at: performance.now() });
    if (g.__held.pattern?.test(channel))
      await new Promise<void>((resolve) => g.__held.waiting.push(resolve));
    return wire(channel, args);
  };
}

/**
 * Watches the bridge calls the page makes from now on (the harness's IPC binding, wrapped in
 * the page), or with `reload`, from the start of the page loaded again (and every later load).
 * Calls whose channel matches `hold` get no answer until `release`: an engine busy with them,
 * as seen by the page.
 */
export async function watchInvokes(
  page: Page,
  hold?: RegExp,
  options: { reload?: boolean } = {},
): Promise<Invokes> {
  const held = { source: hold?.source ?? null, flags: hold?.flags ?? '' };
  if (options.reload) {
    await page.addInitScript(wrapWire, held);
    await page.reload();
  } else {
    await page.evaluate(wrapWire, held);
  }
  const made = (): Promise<Invoked[]> =>
    page.evaluate(() => (globalThis as unknown as WireGlobals).__invoked);
  return {
    made,
    async count(name) {
      return (await made()).filter((c) => c.channel === `bridge:call:${name}`).length;
    },
    release: () =>
      page.evaluate(() => {
        const waiting = (globalThis as unknown as WireGlobals).__held;
        waiting.pattern = null;
        for (const answer of waiting.waiting.splice(0)) answer();
      }),
  };
}
