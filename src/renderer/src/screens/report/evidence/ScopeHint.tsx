import { useMemo } from 'react';
import { matchAsset, parseScope } from '@shared/scope/scope';
import { RouteLink } from '../../../components/RouteLink';
import { useProgramAfterPaint } from '../useProgramAfterPaint';

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
  const program = useProgramAfterPaint(programId);
  const rules = useMemo(
    () => (program ? parseScope(program.scope, program.exclusions) : null),
    [program],
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
        <>
          Warning: this asset matches nothing in the program&apos;s scope. Check the asset for a
          typing error, or read the program&apos;s scope in its{' '}
          <RouteLink to={{ name: 'program', programId, section: 'scope' }}>policy</RouteLink>.
        </>
      )}
    </p>
  );
}
