import type { EvidenceState, EvidenceView } from '@shared/bridge/views';
import { formatBytes } from '../../../lib/format';
import { useReport } from '../../../stores/report';

const STATE_TEXT: Record<EvidenceState, string> = {
  queued: 'Queued',
  uploading: 'Uploading',
  uploaded: 'Uploaded',
  failed: 'Failed: see “Unsent changes”',
};

interface EvidenceListProps {
  files: EvidenceView[];
  onRemove?(file: EvidenceView): void;
  removeDisabledReason?: string | null;
  label?: string;
}

/** Evidence files with live upload progress, hash and state. */
export function EvidenceList({
  files,
  onRemove,
  removeDisabledReason,
  label = 'Evidence',
}: EvidenceListProps) {
  const progress = useReport((s) => s.progress);
  // A failed attempt is not a failed file while the outbox will send it again.
  // (A selector must return what the store holds: a new array each time would re-render forever.)
  const outbox = useReport((s) => s.detail?.outbox);
  const retrying = !!outbox?.some(
    (e) => e.kind === 'upload_file' && (e.state === 'pending' || e.state === 'in_flight'),
  );
  const stateText = (state: EvidenceState): string =>
    state === 'failed' && retrying ? 'Waiting to retry' : STATE_TEXT[state];
  if (files.length === 0) {
    return (
      <ul aria-label={label} className="evidence-list empty-list">
        <li className="muted">
          No files yet. Drop files on the description or use "Attach files".
        </li>
      </ul>
    );
  }
  return (
    <ul aria-label={label} className="evidence-list">
      {files.map((f) => {
        const live = progress.get(f.fileId);
        const size = live?.size ?? f.size;
        // Live progress belongs to the upload under way; a file waiting for its next try has none.
        const sent =
          f.state === 'uploaded'
            ? size
            : f.state === 'uploading'
              ? Math.max(live?.sentBytes ?? 0, f.sentBytes)
              : f.sentBytes;
        return (
          <li key={f.fileId} className={`evidence evidence-${f.state}`}>
            <span className="evidence-name">{f.name}</span>
            <progress aria-label={f.name} max={Math.max(size, 1)} value={Math.min(sent, size)} />
            <span className="muted">{formatBytes(f.size)}</span>
            <span className="mono" title={`sha256 ${f.sha256}`}>
              {f.sha256.slice(0, 12)}
            </span>
            <span className="evidence-state">{stateText(f.state)}</span>
            {onRemove ? (
              <button
                type="button"
                disabled={!!removeDisabledReason}
                title={removeDisabledReason ?? undefined}
                onClick={() => onRemove(f)}
              >
                Remove {f.name}
              </button>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
