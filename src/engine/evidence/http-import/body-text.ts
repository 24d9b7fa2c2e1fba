/**
 * A recorded body as text for a code block: decoded in its declared charset, or, when the bytes
 * are not text (an image, a font, a zip), a label with the type and size instead of the bytes.
 */

const TEXT_TYPE =
  /^(text\/|application\/(?:[\w.+-]*\+)?(?:json|xml|javascript|ecmascript|x-www-form-urlencoded|graphql|x-ndjson|csv|yaml|x-yaml|problem\+json|xhtml\+xml|soap\+xml|x-javascript)\b|image\/svg\+xml|multipart\/form-data)/i;

export function charsetOf(contentType: string): string | null {
  return /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType)?.[1]?.toLowerCase() ?? null;
}

/** Bytes that are text: no NUL, few control characters, valid in the charset tried. */
export function looksLikeBodyText(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 4096);
  let control = 0;
  for (const b of sample) {
    if (b === 0) return false;
    if (b < 9 || (b > 13 && b < 32)) control++;
  }
  return control <= sample.length / 100;
}

export function binaryLabel(size: number, contentType: string): string {
  const type = contentType.split(';')[0]?.trim() || 'unknown type';
  return `[binary body: ${size.toLocaleString('en-US')} bytes of ${type}, not shown]`;
}

/** The body as the user should read it, or a label when it is binary. */
export function bodyText(bytes: Uint8Array, contentType: string): string {
  if (bytes.length === 0) return '';
  const declaredText = TEXT_TYPE.test(contentType);
  const declaredOther = contentType.trim() !== '' && !declaredText;
  if (declaredOther || !looksLikeBodyText(bytes)) {
    // A declared image, font, archive… or bytes that are not text whatever the label says.
    if (
      declaredOther &&
      looksLikeBodyText(bytes) &&
      !/^(image|audio|video|font)\//i.test(contentType)
    )
      return decode(bytes, charsetOf(contentType));
    return binaryLabel(bytes.length, contentType);
  }
  return decode(bytes, charsetOf(contentType));
}

function decode(bytes: Uint8Array, charset: string | null): string {
  if (charset) {
    try {
      return new TextDecoder(charset).decode(bytes);
    } catch {
      // An unknown charset name: UTF-8 below, as a browser would fall back.
    }
  }
  return new TextDecoder('utf-8').decode(bytes);
}

/** The body as `bodyText` gives it, with the bytes kept when they are not text. */
export function bodyOf(
  bytes: Buffer,
  contentType: string,
): { body: string; binary?: { bytes: Buffer; contentType: string } } {
  const body = bodyText(bytes, contentType);
  if (bytes.length > 0 && body === binaryLabel(bytes.length, contentType))
    return { body, binary: { bytes, contentType: contentType.split(';')[0]?.trim() ?? '' } };
  return { body };
}
