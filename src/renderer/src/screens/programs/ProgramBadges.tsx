import type { ProgramSummary } from '@shared/api';
import { Badge } from '../../components/Badge';

/** Private, demo, intake and pool state of a program, as badges. */
export function ProgramBadges({ program }: { program: ProgramSummary }) {
  return (
    <span className="badges">
      {program.private ? <Badge tone="info">Private</Badge> : null}
      {program.demo ? <Badge>Demo</Badge> : null}
      {program.intake === 'paused' ? <Badge tone="warn">Intake paused</Badge> : null}
      {program.intake === 'closed' ? <Badge tone="danger">Intake closed</Badge> : null}
      {program.pool_paused ? <Badge tone="warn">Pool paused</Badge> : null}
    </span>
  );
}

/** Why a program takes no new report, or null when it does. */
export function newReportBlocker(program: ProgramSummary): string | null {
  if (program.intake === 'closed') return 'This program is closed: it does not accept new reports.';
  if (program.intake === 'paused')
    return 'Intake is paused: the program accepts no new reports for now.';
  if (program.pool_paused)
    return 'The reward pool is paused: the program accepts no new reports for now.';
  return null;
}
