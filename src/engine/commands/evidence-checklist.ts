/**
 * The submit checklist's evidence items: no credential left open in what will be
 * sent, and no metadata left in the images that will be uploaded.
 */
import { readFile } from 'node:fs/promises';
import type { SecretScanView } from '@shared/bridge/evidence-views';
import type { ChecklistItemView } from '@shared/bridge/views';
import {
  containerImageOf,
  imageMetadataBlocks,
  rasterTypeOf,
  UNREADABLE_IMAGE,
  type ContainerImage,
} from '../evidence/images';
import type { Store } from '../store';

const CONTAINER_NAMES: Record<ContainerImage, string> = {
  'image/heic': 'HEIC',
  'image/avif': 'AVIF',
  'image/tiff': 'TIFF',
};

export function credentialsItem(scan: SecretScanView): ChecklistItemView {
  const kept = scan.findings.length - scan.open;
  const notScanned = scan.notScanned.map((f) => `“${f.name}”`).join(', ');
  // "and 0 evidence files scanned" read oddly (walk 19).
  const scanned =
    scan.scannedFiles === 0
      ? 'Title, asset and description scanned; no evidence files.'
      : `Title, asset, description and ${scan.scannedFiles} evidence file${scan.scannedFiles === 1 ? '' : 's'} scanned.`;
  return {
    id: 'credentials_found',
    ok: scan.open === 0,
    // The whole report is scanned, its fields as well as its files (a walk read "in evidence"
    // over a token in the description); how many were found, and where, is the detail's.
    label: 'No credentials in the report',
    detail: [
      scan.open === 0
        ? // The checklist is a draft's, and a draft takes no replies (a walk read "queued replies").
          scanned
        : `${scan.open} possible credential${scan.open === 1 ? '' : 's'} found: ${[
            ...new Set(scan.findings.filter((f) => !f.kept).map((f) => f.where)),
          ].join('; ')}.`,
      kept > 0 ? `${kept} kept on purpose.` : '',
      notScanned ? `Not scanned (not text): ${notScanned}.` : '',
    ]
      .filter(Boolean)
      .join(' '),
    fix: 'Redact each finding, or keep it on purpose, under “Credentials check”.',
  };
}

/**
 * Checked on the stored copies: the bytes that are (or will be) uploaded. Every image counts
 * (JPEG, PNG, WebP, GIF, HEIC, AVIF, TIFF); one whose structure the app cannot read, so could
 * not clean, is named: never passed as clean.
 */
export async function imageMetadataItem(
  store: Store,
  reportId: string,
): Promise<ChecklistItemView> {
  let images = 0;
  const withMetadata: string[] = [];
  const notCleaned: string[] = [];
  for (const file of store.evidence.listForReport(reportId)) {
    if (file.purpose !== 'report') continue;
    const bytes = await readFile(store.evidence.blobPath(file.sha256)).catch(() => null);
    if (!bytes) continue;
    const container = containerImageOf(bytes);
    if (!container && !rasterTypeOf(bytes)) continue;
    images += 1;
    const left = imageMetadataBlocks(bytes);
    if (container && left.includes(UNREADABLE_IMAGE))
      notCleaned.push(`“${file.name}” (${CONTAINER_NAMES[container]})`);
    else if (left.length > 0) withMetadata.push(`“${file.name}” (${left.join(', ')})`);
  }
  const base = {
    id: 'image_metadata',
    label: 'Image metadata removed',
    fix: 'Remove the image and attach it again: the copy the app keeps has no metadata.',
  };
  const problems = [
    // By name: files attached in one call may arrive in any order.
    withMetadata.length > 0 ? `Still has metadata: ${withMetadata.sort().join(', ')}.` : '',
    notCleaned.length > 0
      ? `Metadata not removed (a file whose structure this app cannot read): ${notCleaned.sort().join(', ')}. Convert it to PNG or JPEG, or check it yourself.`
      : '',
  ].filter(Boolean);
  if (problems.length > 0) return { ...base, ok: false, detail: problems.join(' ') };
  return {
    ...base,
    ok: true,
    detail:
      images === 0
        ? 'No images attached.'
        : `EXIF, GPS, XMP, IPTC, comments and thumbnails removed from ${images} image${images === 1 ? '' : 's'}; orientation kept.`,
  };
}
