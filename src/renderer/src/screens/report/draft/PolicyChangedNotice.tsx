import { useState } from 'react';
import { knownProgram, readProgram } from '../../../stores/programs';
import { useSession } from '../../../stores/session';
import { RouteLink } from '../../../components/RouteLink';
import { useLoadedAfterPaint } from '../../../lib/useLoaded';

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
  // What the program said when last read shows at once; the read after the paint brings it up to date.
  const [read, setRead] = useState<{ programId: string; version: number | null } | null>(null);
  const current =
    read?.programId === programId
      ? read.version
      : (knownProgram(programId)?.policy_version ?? null);
  useLoadedAfterPaint(
    () => readProgram(programId),
    (p) => setRead({ programId, version: p?.policy_version ?? null }),
    [programId, lastSyncAt],
  );
  if (startedUnder === null || current === null || current <= startedUnder) return null;
  return (
    <p className="callout policy-changed" role="note">
      The program&apos;s policy changed since you started this draft (version {startedUnder} →{' '}
      {current}). Check the scope and rules before you submit.{' '}
      <RouteLink to={{ name: 'program', programId }}>Read the policy</RouteLink>
    </p>
  );
}
