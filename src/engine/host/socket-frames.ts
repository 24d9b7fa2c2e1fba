import { deserialize, serialize } from 'node:v8';
import { ENGINE_CODES } from '@shared/errors/error-data';

/** The largest frame either side accepts (a pasted capture is at most a few MiB). */
export const MAX_FRAME_BYTES = 64 * 1024 * 1024;

/** A message as one frame: its length (4 bytes, big-endian), then its structured clone. */
export function encodeFrame(message: unknown): Buffer {
  return rawFrame(serialize(message));
}

/** Bytes as one frame, unserialized (the hello's token). */
export function rawFrame(body: Uint8Array): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.byteLength);
  return Buffer.concat([head, body]);
}

export class FrameTooLargeError extends Error {
  override readonly name = 'FrameTooLargeError';
  readonly code = ENGINE_CODES.frameTooLarge;
}

/**
 * Cuts a stream of bytes into frames. With `onRaw` (the server), the first frame is handed over
 * raw (the hello) and only the rest deserialized, so nothing of a peer that has not proved itself
 * is ever deserialized.
 */
export class FrameReader {
  #buffer: Buffer = Buffer.alloc(0);
  #first: boolean;

  constructor(
    private readonly onRaw: ((body: Buffer) => void) | null,
    private readonly onMessage: (message: unknown) => void,
    private readonly maxBytes = MAX_FRAME_BYTES,
  ) {
    this.#first = onRaw !== null;
  }

  push(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    while (this.#buffer.length >= 4) {
      const length = this.#buffer.readUInt32BE(0);
      const limit = this.#first ? 256 : this.maxBytes;
      if (length > limit) throw new FrameTooLargeError(`A frame of ${length} bytes is too large.`);
      if (this.#buffer.length < 4 + length) return;
      const body = this.#buffer.subarray(4, 4 + length);
      this.#buffer = this.#buffer.subarray(4 + length);
      if (this.#first) {
        this.#first = false;
        this.onRaw?.(Buffer.from(body));
      } else {
        this.onMessage(deserialize(body));
      }
    }
  }
}
