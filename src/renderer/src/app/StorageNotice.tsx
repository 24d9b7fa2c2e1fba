import { useState } from 'react';
import { useSession } from '../stores/session';
import { errorWords } from '@shared/errors/describe-error';
import { plural } from '../lib/format';

/**
 * What the researcher's own disk is doing to the app, in one sentence each: a full disk (sending
 * and syncing wait; nothing is lost) and an offline copy found damaged at this start (kept aside,
 * rebuilt from the server, unsent work kept). Not an alert: nothing here needs a click to go on.
 */
export function StorageNotice() {
  const storage = useSession((s) => s.status?.storage ?? null);
  const [dismissed, setDismissed] = useState<string | null>(null);
  if (!storage) return null;
  const recovered = storage.recovered;
  const showRecovered = recovered !== null && dismissed !== recovered.at;
  if (!storage.diskFull && !showRecovered) return null;
  return (
    <div className="notices">
      {storage.diskFull ? (
        <div className="storage-notice" role="status">
          <strong>Your disk is full:</strong> nothing is lost; sending resumes when space is free.
        </div>
      ) : null}
      {recovered && showRecovered ? (
        <div className="storage-notice" role="status">
          <p>
            <strong>{errorWords('damaged_database')?.title}.</strong> It was kept aside as{' '}
            <code>{recovered.keptAs.split(/[\\/]/u).pop()}</code> and is being rebuilt from the
            server; {plural(recovered.drafts, 'draft')} and{' '}
            {plural(recovered.changes, 'unsent change')} were kept and are sent once.
          </p>
          <button type="button" onClick={() => setDismissed(recovered.at)}>
            Dismiss
          </button>
        </div>
      ) : null}
    </div>
  );
}
