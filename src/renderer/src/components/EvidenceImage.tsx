import { useEffect, useState } from 'react';
import { evidenceImageUrl } from '../lib/evidence-images';

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
  useEffect(() => {
    let live = true;
    void evidenceImageUrl(reportId, fileId).then((found) => {
      if (live) setUrl(found);
    });
    return () => {
      live = false;
    };
  }, [reportId, fileId]);
  if (!url) return null;
  // Bytes the browser cannot decode (a truncated file) show nothing rather than a broken icon.
  return <img className="evidence-image" src={url} alt={alt} onError={() => setUrl(null)} />;
}
