import { useState } from 'react';
import { evidenceImageUrl } from '../lib/evidence-images';
import { useLoaded } from '../lib/useLoaded';

/** An evidence image of a report from its local copy, or nothing (see lib/evidence-images.ts). */
export function EvidenceImage({
  reportId,
  fileId,
  alt,
}: {
  reportId: string;
  fileId: string;
  alt: string;
}) {
  const [url, setUrl] = useState<string | null>(null);
  useLoaded(() => evidenceImageUrl(reportId, fileId), setUrl, [reportId, fileId]);
  if (!url) return null;
  // Bytes the browser cannot decode (a truncated file) show nothing rather than a broken icon.
  return <img className="evidence-image" src={url} alt={alt} onError={() => setUrl(null)} />;
}
