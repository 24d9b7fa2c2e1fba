/**
 * The EXIF Orientation tag: read from an image's EXIF, and written back alone when the metadata
 * goes, so a cleaned image displays as the original did.
 */

/** What starts EXIF data inside a JPEG APP1 segment or a WebP EXIF chunk. */
export const EXIF_HEADER = Buffer.from('Exif\0\0', 'latin1');
/** The namespace every XMP packet names. */
export const XMP_NS = Buffer.from('http://ns.adobe.com/xap', 'latin1');

/** The Orientation tag (0x0112) of IFD0 in a TIFF structure (EXIF's body); null if absent. */
export function orientationOf(tiff: Uint8Array): number | null {
  if (tiff.length < 8) return null;
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const little = tiff[0] === 0x49;
  const ifd = view.getUint32(4, little);
  if (ifd + 2 > tiff.length) return null;
  const entries = view.getUint16(ifd, little);
  for (let i = 0; i < entries; i++) {
    const at = ifd + 2 + i * 12;
    if (at + 12 > tiff.length) return null;
    if (view.getUint16(at, little) === 0x0112) {
      const value = view.getUint16(at + 8, little);
      return value >= 1 && value <= 8 ? value : null;
    }
  }
  return null;
}

/** A TIFF structure holding one tag, Orientation, and nothing else. */
export function orientationTiff(orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  tiff.writeUInt16BE(1, 8);
  tiff.writeUInt16BE(0x0112, 10);
  tiff.writeUInt16BE(3, 12); // SHORT
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt16BE(orientation, 18);
  tiff.writeUInt32BE(0, 22); // no next IFD: no thumbnail
  return tiff;
}

/** A TIFF structure with an empty IFD0: EXIF that says nothing. */
export function emptyTiff(): Buffer {
  const tiff = Buffer.alloc(14);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  return tiff; // 0 entries, no next IFD
}

/** Whether a TIFF structure is exactly what `orientationTiff` writes: nothing that identifies. */
export function onlyOrientation(tiff: Uint8Array): boolean {
  if (tiff.length < 26) return false;
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const little = tiff[0] === 0x49;
  const ifd = view.getUint32(4, little);
  if (ifd + 18 > tiff.length) return false;
  return (
    view.getUint16(ifd, little) === 1 &&
    view.getUint16(ifd + 2, little) === 0x0112 &&
    view.getUint32(ifd + 14, little) === 0
  );
}

/** The orientation an XMP packet states (`tiff:Orientation`, attribute or element); null if none. */
export function xmpOrientation(xmp: string): number | null {
  const m = /tiff:Orientation\s*(?:=\s*["']\s*([1-8])\s*["']|>\s*([1-8])\s*<)/.exec(xmp);
  const n = Number(m?.[1] ?? m?.[2]);
  return n >= 1 && n <= 8 ? n : null;
}

/** An XMP packet that says one thing, the orientation: nothing that identifies. */
export function orientationXmp(orientation: number): string {
  return (
    '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">' +
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about=""' +
    ` xmlns:tiff="http://ns.adobe.com/tiff/1.0/" tiff:Orientation="${orientation}"/></rdf:RDF>` +
    '</x:xmpmeta><?xpacket end="w"?>'
  );
}
