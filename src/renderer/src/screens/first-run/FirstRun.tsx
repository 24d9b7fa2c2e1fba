import { useState, type FormEvent, type ReactNode } from 'react';
import { bridge } from '../../bridge';
import { fieldErrorOf, thrownErrorView } from '../../lib/errors';
import { useSession } from '../../stores/session';
import { ErrorAlert } from '../../components/ErrorAlert';
import { WebsiteLink } from '../../components/WebsiteLink';
import { serverUrlProblem } from '@shared/api/server-url';
import { newerDataSentence } from '@shared/errors/newer-data';
import type { ErrorView, StorageView } from '@shared/bridge/views';
import { useLoaded } from '../../lib/useLoaded';

type Field = 'serverUrl' | 'apiKey';

export function validateConnectInput(
  serverUrl: string,
  apiKey: string,
): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  const urlProblem = serverUrlProblem(serverUrl);
  if (urlProblem) errors.serverUrl = urlProblem;
  if (!apiKey.trim()) errors.apiKey = 'Paste an API key created on the website.';
  return errors;
}

export function FirstRun() {
  const setAccount = useSession((s) => s.setAccount);
  const [serverUrl, setServerUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, string>>>({});
  const [error, setError] = useState<ErrorView | null>(null);
  const [busy, setBusy] = useState(false);
  const [newerData, setNewerData] = useState<StorageView['newerData']>(null);
  // The signed-in account's data may be a newer app's: then it was not opened at all.
  useLoaded(
    () => bridge.getStatus(),
    (status) => setNewerData(status.storage.newerData),
    [],
  );

  async function run(
    action: () => Promise<Awaited<ReturnType<typeof bridge.connectSandbox>>>,
  ): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      setAccount(await action());
    } catch (e) {
      const field = fieldErrorOf(e);
      if (field && (field.field === 'serverUrl' || field.field === 'apiKey')) {
        setFieldErrors({ [field.field]: field.message });
      } else {
        setError(thrownErrorView(e));
      }
    } finally {
      setBusy(false);
    }
  }

  function connect(e: FormEvent): void {
    e.preventDefault();
    const errors = validateConnectInput(serverUrl, apiKey);
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) return;
    void run(() => bridge.connect({ serverUrl: serverUrl.trim(), apiKey: apiKey.trim() }));
  }

  return (
    <main className="first-run">
      <h1>Welcome</h1>
      <p>
        Bounty Desk keeps your reports on this computer and sends them when you are online. Try it
        with the built-in sandbox, or connect to a server with an API key.
      </p>
      {error ? <ErrorAlert error={error} onDismiss={() => setError(null)} /> : null}
      {newerData ? (
        <section className="card storage-notice" aria-labelledby="newer-data-heading">
          <div>
            <h2 id="newer-data-heading">Your data is from a newer version</h2>
            <p>
              {newerDataSentence(newerData.found, newerData.supported)} A fresh copy keeps the newer
              data aside, untouched, and downloads your reports again from the server.
            </p>
          </div>
          <button type="button" disabled={busy} onClick={() => void run(() => bridge.startFresh())}>
            Start with a fresh copy
          </button>
        </section>
      ) : null}
      <section className="card" aria-labelledby="sandbox-heading">
        <h2 id="sandbox-heading">Try the sandbox</h2>
        <p>A local practice server with demo programs. Nothing leaves your computer.</p>
        <button
          type="button"
          disabled={busy}
          onClick={() => void run(() => bridge.connectSandbox())}
        >
          Use the sandbox
        </button>
      </section>
      <form className="card" aria-labelledby="server-heading" onSubmit={connect} noValidate>
        <h2 id="server-heading">Connect to a server</h2>
        <CheckedField label="Server URL" errorId="server-url-error" error={fieldErrors.serverUrl}>
          {(aria) => (
            <input
              spellCheck={false}
              type="url"
              value={serverUrl}
              onChange={(e) => setServerUrl(e.target.value)}
              placeholder="https://"
              {...aria}
              autoComplete="url"
            />
          )}
        </CheckedField>
        <CheckedField label="API key" errorId="api-key-error" error={fieldErrors.apiKey}>
          {(aria) => (
            <input
              type="password"
              value={apiKey}
              onChange={(e) => setApiKey(e.target.value)}
              {...aria}
              autoComplete="off"
              spellCheck={false}
            />
          )}
        </CheckedField>
        <button type="submit" disabled={busy}>
          Connect
        </button>
        <p className="hint">
          No key yet? <WebsiteLink page="sign-up">Sign up</WebsiteLink>, then{' '}
          <WebsiteLink page="api-keys">Create API keys</WebsiteLink> on the website.
        </p>
      </form>
    </main>
  );
}

/** What ties an input to its error for screen readers, while there is one. */
interface ErrorAria {
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/** A labelled input and, when sign-in named this field, its error below it, tied to it. */
function CheckedField({
  label,
  errorId,
  error,
  children,
}: {
  label: string;
  errorId: string;
  error: string | undefined;
  children: (aria: ErrorAria) => ReactNode;
}) {
  return (
    <>
      <label className="field">
        <span>{label}</span>
        {children({
          'aria-invalid': error ? true : undefined,
          'aria-describedby': error ? errorId : undefined,
        })}
      </label>
      {error ? (
        <p id={errorId} className="field-error">
          {label}: {error}
        </p>
      ) : null}
    </>
  );
}
