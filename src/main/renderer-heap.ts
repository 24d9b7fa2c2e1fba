import type { App } from 'electron';

/**
 * The window's V8 heap sized for memory, as the engine's is (engine/host/heap-size.ts): dragging
 * the scroll bar through 100,000 reports makes a block of rows (and their unmounted DOM) of
 * garbage every other frame, and with V8's defaults the renderer grew to 477-529 MB between full
 * collections that left about 170 MB live. With `--optimize-for-size` it peaked at 266 MB in the
 * same bench run (load average 3-4; bench/renderer.ts). The browser tests and benches start
 * Chromium with the same flags (test/renderer/support/app.ts), so they measure what ships.
 */
export const RENDERER_JS_FLAGS = '--optimize-for-size';

/** Before the app is ready: Chromium reads its switches when it starts the renderer. */
export function sizeRendererHeapForMemory(app: Pick<App, 'commandLine'>): void {
  app.commandLine.appendSwitch('js-flags', RENDERER_JS_FLAGS);
}
