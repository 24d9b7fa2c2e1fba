/**
 * Milkdown builds an editor in phases (its set-up, the schema, the parser, the document's state,
 * the view), each waiting on the timers of its slice. Built in one go that is one task of 30 to
 * 100 ms; an editor made ahead of need (`spare-editor.ts`) instead waits for `pace` before each
 * phase, so it is built a phase per idle period and never holds a frame for long.
 */
import {
  EditorStateReady,
  InitReady,
  ParserReady,
  SchemaReady,
  editorStateTimerCtx,
  editorViewTimerCtx,
  parserTimerCtx,
  schemaTimerCtx,
} from '@milkdown/kit/core';
import {
  createTimer,
  type MilkdownPlugin,
  type SliceType,
  type TimerType,
} from '@milkdown/kit/ctx';

/**
 * Milkdown's own timers give up after 3 s; a phase held back here must not outlast them (nor be
 * stopped by its own timer first: `pace` answers within its idle timeout).
 */
const PHASE_TIMEOUT_MS = 30_000;

/** Each phase, after the one it follows: the timer slice it waits on, and what it waits after. */
const PHASES: readonly { name: string; slice: SliceType<TimerType[]>; after: TimerType }[] = [
  { name: 'PacedSchema', slice: schemaTimerCtx, after: InitReady },
  { name: 'PacedParser', slice: parserTimerCtx, after: SchemaReady },
  { name: 'PacedState', slice: editorStateTimerCtx, after: ParserReady },
  { name: 'PacedView', slice: editorViewTimerCtx, after: EditorStateReady },
];

/** The plugins that hold each phase until `pace` runs what it is given. */
export function pacedPhases(pace: (next: () => void) => void): MilkdownPlugin[] {
  return PHASES.map(({ name, slice, after }) => {
    const gate = createTimer(name, PHASE_TIMEOUT_MS);
    const plugin: MilkdownPlugin = (ctx) => {
      // In the set-up step, before any phase runs and reads its slice.
      ctx.record(gate).update(slice, (timers) => [...timers, gate]);
      return async () => {
        await ctx.wait(after);
        pace(() => ctx.done(gate));
        return () => {
          ctx.clearTimer(gate);
        };
      };
    };
    return plugin;
  });
}
