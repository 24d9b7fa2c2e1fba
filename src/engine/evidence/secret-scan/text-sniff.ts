/** Whether bytes are text, and their text: what decides how an evidence file is scanned. */

export const SNIFF_BYTES = 64 * 1024;

/**
 * Text, by content: no NUL byte in the first 64 KiB and valid UTF-8 there (a sequence cut at the
 * sample's end is fine), or a UTF-16 byte order mark. `.pem`, `.env`, `.yaml`, `.req` all pass;
 * a PNG, a ZIP or a PDF's binary streams do not.
 */
export function looksLikeText(bytes: Uint8Array): boolean {
  if (bytes.length === 0) return false;
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    return true;
  const sample = bytes.subarray(0, SNIFF_BYTES);
  if (sample.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return true;
  } catch {
    return false;
  }
}

export function decodeText(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    const swapped = Buffer.from(bytes.subarray(2));
    swapped.swap16();
    return swapped.toString('utf16le');
  }
  return bytes.toString('utf8').replace(/^\uFEFF/, '');
}
