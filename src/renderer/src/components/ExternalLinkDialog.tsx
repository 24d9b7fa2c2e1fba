import { useExternalLink } from '../stores/external-link';
import { Dialog } from './Dialog';

/** "Open this address in your browser?" with the whole address, before any link leaves the app. */
export function ExternalLinkDialog() {
  const pending = useExternalLink((s) => s.pending);
  const confirm = useExternalLink((s) => s.confirm);
  const cancel = useExternalLink((s) => s.cancel);
  if (!pending) return null;
  let host: string;
  try {
    const url = new URL(pending);
    host = url.protocol === 'mailto:' ? url.pathname : url.host;
  } catch {
    host = '';
  }
  return (
    <Dialog title="Open this address in your browser?" onClose={cancel} className="external-link">
      <p>
        The link leads to <strong>{host || 'another site'}</strong>. Its whole address:
      </p>
      <p className="mono external-address" aria-label="Address">
        {pending}
      </p>
      <div className="action-row">
        <button type="button" className="primary" onClick={confirm}>
          Open in browser
        </button>
        <button type="button" onClick={cancel} data-autofocus>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
