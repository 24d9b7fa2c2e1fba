import { useEffect, useState } from 'react';
import { bridge } from '../../bridge';
import { useSession, useReadOnlyReason } from '../../stores/session';
import { reportError } from '../../stores/notices';
import { WebsiteLink } from '../../components/WebsiteLink';
import { formatCountdown, formatTime, humanize } from '../../lib/format';
import { useVerificationSends } from './useVerificationSends';
import { ReasonedButton } from '../../components/ReasonedButton';

function VerificationButton({ verified }: { verified: boolean }) {
  const readOnly = useReadOnlyReason();
  const { waitMs, record } = useVerificationSends();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const reason = verified
    ? 'Your e-mail is already verified.'
    : (readOnly ??
      (waitMs > 0
        ? `You can send another e-mail in ${formatCountdown(waitMs / 1000)} (at most 1 a minute and 5 an hour).`
        : null));
  async function send(): Promise<void> {
    setBusy(true);
    setResult(null);
    try {
      const { alreadyVerified } = await bridge.sendVerificationEmail();
      record();
      setResult(
        alreadyVerified
          ? 'Your e-mail is already verified.'
          : 'Sent. Open the link in the e-mail, then refresh.',
      );
      if (alreadyVerified) void useSession.getState().loadAccount();
    } catch (e) {
      const view = reportError(e);
      if (view.code === 'rate_limited') record();
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="action-row">
      <ReasonedButton reason={reason} busy={busy} onClick={() => void send()}>
        Send verification e-mail
      </ReasonedButton>
      {result ? <span role="status">{result}</span> : null}
    </div>
  );
}

export function AccountScreen() {
  const account = useSession((s) => s.account);
  const loadAccount = useSession((s) => s.loadAccount);
  const signOut = useSession((s) => s.signOut);
  const [refreshing, setRefreshing] = useState(false);
  useEffect(() => {
    void loadAccount();
  }, [loadAccount]);
  if (!account) return null;
  const me = account.me;
  const payments = account.payments ?? me?.payments ?? null;

  async function refreshPayments(): Promise<void> {
    setRefreshing(true);
    try {
      await bridge.refreshPayments();
      await loadAccount();
    } catch (e) {
      reportError(e);
    } finally {
      setRefreshing(false);
    }
  }

  return (
    <div className="screen account-screen">
      <h1>Account</h1>
      <section className="card" aria-labelledby="email-heading">
        <h2 id="email-heading">E-mail</h2>
        {me ? (
          <p>
            {me.email ?? 'No e-mail on file'} —{' '}
            <strong>{me.email_verified ? 'Verified' : 'Not verified'}</strong>
          </p>
        ) : (
          <p>Account details arrive with the first sync.</p>
        )}
        <VerificationButton verified={me?.email_verified ?? false} />
        <p className="hint">
          <WebsiteLink page="verify-email">Verify e-mail</WebsiteLink> on the website if the link
          expired.
        </p>
      </section>
      <section className="card" aria-labelledby="payments-heading">
        <h2 id="payments-heading">Payments</h2>
        <p>
          Payments status: <strong>{payments ? humanize(payments.status) : 'unknown'}</strong>
          {payments?.ready
            ? ' (ready for payouts)'
            : payments
              ? ' (not ready: submission needs “Ready”)'
              : ''}
        </p>
        {payments?.detail ? <p className="muted">{payments.detail}</p> : null}
        <p className="muted">Checked {formatTime(payments?.checked_at ?? null)}</p>
        <div className="action-row">
          <button type="button" disabled={refreshing} onClick={() => void refreshPayments()}>
            Refresh payments status
          </button>
          <WebsiteLink page="payment-onboarding">Payment onboarding</WebsiteLink>
        </div>
      </section>
      <section className="card" aria-labelledby="key-heading">
        <h2 id="key-heading">Connection</h2>
        <p>
          Active reports {me?.active_reports ?? 0}/{me?.active_limit ?? 5}
        </p>
        <p>Key scope: {account.scope}</p>
        {account.scope === 'read' ? (
          <p className="disabled-reason">This key can only read: every change is disabled.</p>
        ) : null}
        <p>
          Server: <span className="mono">{account.serverUrl}</span>
          {account.sandbox ? ' (built-in sandbox)' : ''}
        </p>
        <p className="hint">
          <WebsiteLink page="sign-up">Sign up</WebsiteLink> ·{' '}
          <WebsiteLink page="api-keys">Create API keys</WebsiteLink>
        </p>
        <button type="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </section>
    </div>
  );
}
