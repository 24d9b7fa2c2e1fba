/** A size in bytes as a person reads it: "512 B", "3.4 KiB", "12.5 MiB" (binary units, as the API's limits). */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return `${bytes} bytes`;
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/**
 * Two sizes written so that they read as different when they are (a size over a limit beside the
 * limit): "10.0 MiB" and "10.0 MiB" become "10,485,761 bytes" and "10,485,760 bytes (10.0 MiB)".
 */
export function formatSizes(a: number, b: number): [string, string] {
  const [x, y] = [formatSize(a), formatSize(b)];
  if (x !== y || a === b) return [x, y];
  const bytes = (n: number): string => `${n.toLocaleString('en-US')} bytes`;
  return [bytes(a), `${bytes(b)} (${y})`];
}
