import { useProgramAfterPaint } from '../useProgramAfterPaint';
import { useSession } from '../../../stores/session';
import { RouteLink } from '../../../components/RouteLink';

/**
 * The program's policy changed since this draft was started (a scope or a rule may have moved):
 * say so, with the versions and a way to read it, before the report is submitted under it.
 */
export function PolicyChangedNotice({
  programId,
  startedUnder,
}: {
  programId: string;
  startedUnder: number | null;
}) {
  const lastSyncAt = useSession((s) => s.status?.lastSyncAt ?? null);
  // Read again after each sync: the policy may have changed under the open draft.
  const current = useProgramAfterPaint(programId, lastSyncAt)?.policy_version ?? null;
  if (startedUnder === null || current === null || current <= startedUnder) return null;
  return (
    <p className="callout policy-changed" role="note">
      The program&apos;s policy changed since you started this draft (version {startedUnder} →{' '}
      {current}). Check the scope and rules before you submit.{' '}
      <RouteLink to={{ name: 'program', programId, section: 'policy' }}>Read the policy</RouteLink>
    </p>
  );
}
