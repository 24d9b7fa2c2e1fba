import { useCallback, useState } from 'react';
import { bridge } from '../../../bridge';
import { reportError } from '../../../stores/notices';

/** Saves a report file to disk (main asks where); the file is never opened. */
export function useDownload(reportId: string): {
  download(fileId: string, name: string): void;
  saved: string | null;
} {
  const [saved, setSaved] = useState<string | null>(null);
  const download = useCallback(
    (fileId: string, name: string) => {
      bridge
        .downloadFile(reportId, fileId)
        .then((result) => setSaved(result ? `Saved ${name} to ${result.savedTo}` : null))
        .catch(reportError);
    },
    [reportId],
  );
  return { download, saved };
}
