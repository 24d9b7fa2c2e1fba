import type { ErrorView } from '@shared/bridge/views';

interface ErrorAlertProps {
  error: ErrorView;
  onDismiss?: () => void;
}

/** An error in words: what happened, what to do next, and the request ID for server errors. */
export function ErrorAlert({ error, onDismiss }: ErrorAlertProps) {
  return (
    <div role="alert" className="error-alert">
      <div className="error-text">
        <strong className="error-title">{error.title}</strong>
        <span className="error-advice"> {error.advice}</span>
        {error.requestId ? (
          <span className="error-request"> Request ID: {error.requestId}</span>
        ) : null}
      </div>
      {onDismiss ? (
        <button
          type="button"
          className="icon-button"
          aria-label="Dismiss error"
          onClick={onDismiss}
        >
          ×
        </button>
      ) : null}
    </div>
  );
}
