import * as nodeModule from 'node:module';

type EnableCompileCache = (directory?: string) => unknown;

/**
 * Turns on Node's on-disk cache of compiled code (Node 22.1 and later; older Nodes have no such
 * call and start as before). Modules loaded after this call are compiled once and then read back,
 * which is most of a short command's start. Node keeps the cache in its own folder under the OS
 * temp folder (or NODE_COMPILE_CACHE), checks each entry against the source, and
 * NODE_DISABLE_COMPILE_CACHE turns it off.
 */
export function enableCompileCacheIfPresent(): void {
  const enable = (nodeModule as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
  if (typeof enable !== 'function') return;
  try {
    enable();
  } catch {
    // A cache that cannot be written only costs the time it would have saved.
  }
}
