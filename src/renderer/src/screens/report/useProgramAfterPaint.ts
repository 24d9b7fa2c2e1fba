import { useState } from 'react';
import type { ProgramView } from '@shared/bridge/views';
import { knownProgram, readProgram } from '../../stores/programs';
import { useLoadedAfterPaint } from '../../lib/useLoaded';

/**
 * A program for a part of a draft's screen (scope hint, policy notice): what it said when last
 * read shows at once, in the frame that shows the draft, and a read once that frame is painted
 * brings it up to date (again whenever `refreshOn` changes). Undefined: not known yet.
 */
export function useProgramAfterPaint(
  programId: string,
  refreshOn: unknown = null,
): ProgramView | null | undefined {
  const [read, setRead] = useState<{ programId: string; program: ProgramView | null } | null>(null);
  useLoadedAfterPaint(
    () => readProgram(programId),
    (program) => setRead({ programId, program }),
    [programId, refreshOn],
  );
  return read?.programId === programId ? read.program : knownProgram(programId);
}
