import { useMemo, useState } from 'react';
import { matchAsset, parseScope, type ScopeRules } from '@shared/scope/scope';
import { knownProgram, readProgram } from '../../../stores/programs';
import { useLoadedAfterPaint } from '../../../lib/useLoaded';
import type { ProgramView } from '@shared/bridge/views';

const rulesOf = (program: ProgramView | null | undefined): ScopeRules | null =>
  program ? parseScope(program.scope, program.exclusions) : null;

/**
 * Under the asset field: the program's scope line the asset matches, or a
 * warning that it matches an exclusion or nothing in scope. A hint, never a block: scope text is
 * prose, and the researcher knows the program better than a parser.
 */
export function ScopeHint({
  programId,
  asset,
  id,
}: {
  programId: string;
  asset: string;
  id: string;
}) {
  // What the program said when last read shows at once; the read after the paint brings it up to date.
  const known = useMemo(() => rulesOf(knownProgram(programId)), [programId]);
  const [read, setRead] = useState<{ programId: string; rules: ScopeRules | null } | null>(null);
  const rules = read?.programId === programId ? read.rules : known;
  useLoadedAfterPaint(
    () => readProgram(programId),
    (program) => setRead({ programId, rules: rulesOf(program) }),
    [programId],
  );
  const match = useMemo(() => (rules ? matchAsset(rules, asset) : null), [rules, asset]);
  if (!match || match.status === 'unknown') return null;
  return (
    <p id={id} role="status" aria-label="Scope" className={`scope-hint scope-${match.status}`}>
      {match.status === 'in-scope' ? (
        <>
          In scope: <q>{match.line}</q>
        </>
      ) : match.status === 'excluded' ? (
        <>
          Warning: this asset matches an exclusion: <q>{match.line}</q>
        </>
      ) : match.status === 'unsure' ? (
        <>
          Unsure: read the policy: <q>{match.line}</q> ({match.reason})
        </>
      ) : (
        "Warning: this asset matches nothing in the program's scope."
      )}
    </p>
  );
}
