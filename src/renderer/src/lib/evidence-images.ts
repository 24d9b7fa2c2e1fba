/**
 * Evidence images shown inline. The engine returns the bytes of the local copy
 * only when they are PNG, JPEG, GIF or WebP (checked by magic bytes); the page checks the type
 * again and shows them as a `data:` URL, the one image source the CSP allows besides the bundle.
 * Nothing is ever fetched: no remote URL, no file path, no SVG.
 */
import { bridge } from '../bridge';
import { classifyLink } from './safe-url';

const RASTER = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const cache = new Map<string, Promise<string | null>>();

/** A `data:` URL of the evidence image, or null (not local, not raster, not this report's). */
export function evidenceImageUrl(reportId: string, fileId: string): Promise<string | null> {
  const key = `${reportId}/${fileId}`;
  let url = cache.get(key);
  if (!url) {
    // A page without the bridge (the editor alone, in its own tests) shows placeholders.
    url = Promise.resolve()
      .then(() => bridge.getEvidenceImage(reportId, fileId))
      .then((image) =>
        image && RASTER.has(image.contentType) && /^[A-Za-z0-9+/]*={0,2}$/.test(image.base64)
          ? `data:${image.contentType};base64,${image.base64}`
          : null,
      )
      .catch(() => null);
    cache.set(key, url);
    // A miss may become a hit (the file is attached later): only hits are remembered.
    void url.then((found) => {
      if (!found) cache.delete(key);
    });
  }
  return url;
}

/**
 * The Markdown editor's image placeholder, upgraded to the image itself when its target is a
 * file of report `reportId` (the one being written) with a local raster copy. Other targets, a
 * file of another report included, keep the placeholder text.
 */
export function showEvidenceImage(
  dom: HTMLElement,
  src: string,
  alt: string,
  reportId: string,
): void {
  const link = classifyLink(src);
  if (link.kind !== 'file' || link.target.reportId !== reportId) return;
  void evidenceImageUrl(reportId, link.target.fileId).then((url) => {
    if (!url || !dom.isConnected) return;
    const img = document.createElement('img');
    img.alt = alt;
    img.className = 'evidence-image';
    // Only an image the browser could decode replaces the placeholder (no broken-image icon).
    img.onload = () => {
      if (dom.isConnected) dom.replaceChildren(img);
    };
    img.src = url;
  });
}
