/** GIF metadata: comment extensions and application extensions other than animation looping. */

/** Application extensions that only say how an animation loops. */
const GIF_LOOPING = new Set(['NETSCAPE2.0', 'ANIMEXTS1.0']);

interface GifBlock {
  start: number;
  end: number;
  /** `comment`, `application:<id>` or null for image data and other extensions. */
  metadata: string | null;
}

function gifSubBlocksEnd(bytes: Buffer, at: number): number {
  let i = at;
  while (i < bytes.length) {
    const size = bytes[i] ?? 0;
    i += 1 + size;
    if (size === 0) break;
  }
  return Math.min(i, bytes.length);
}

function gifBlocks(bytes: Buffer): { head: number; blocks: GifBlock[] } | null {
  if (bytes.length < 13) return null;
  const flags = bytes[10] ?? 0;
  let at = 13 + (flags & 0x80 ? 3 * 2 ** ((flags & 0x07) + 1) : 0);
  const head = at;
  const blocks: GifBlock[] = [];
  while (at < bytes.length) {
    const start = at;
    const kind = bytes[at];
    if (kind === 0x3b) {
      blocks.push({ start, end: at + 1, metadata: null });
      break;
    }
    if (kind === 0x21) {
      const label = bytes[at + 1];
      let metadata: string | null = null;
      if (label === 0xfe) metadata = 'comment';
      if (label === 0xff) {
        const id = bytes.toString('latin1', at + 3, at + 3 + (bytes[at + 2] ?? 0));
        if (!GIF_LOOPING.has(id)) metadata = `application ${id}`;
      }
      const end = gifSubBlocksEnd(bytes, at + 2);
      blocks.push({ start, end, metadata });
      at = end;
    } else if (kind === 0x2c) {
      const local = bytes[at + 9] ?? 0;
      const data = at + 10 + (local & 0x80 ? 3 * 2 ** ((local & 0x07) + 1) : 0) + 1;
      const end = gifSubBlocksEnd(bytes, data);
      blocks.push({ start, end, metadata: null });
      at = end;
    } else {
      return null; // not a GIF block: leave the file as it is
    }
  }
  return { head, blocks };
}

export function stripGif(bytes: Buffer): Buffer {
  const parsed = gifBlocks(bytes);
  if (!parsed) return bytes;
  return Buffer.concat([
    bytes.subarray(0, parsed.head),
    ...parsed.blocks.filter((b) => !b.metadata).map((b) => bytes.subarray(b.start, b.end)),
  ]);
}

export function gifMetadata(bytes: Buffer): string[] {
  return [...new Set(gifBlocks(bytes)?.blocks.flatMap((b) => (b.metadata ? [b.metadata] : [])))];
}
