import { useEffect } from 'react';
import { SEVERITIES } from '@shared/api';
import type { Program } from '@shared/api';
import { bridge } from '../../bridge';
import { usePrograms } from '../../stores/programs';
import { navigate } from '../../stores/router';
import { useReadOnlyReason, useSession } from '../../stores/session';
import { useCommand } from '../../stores/commands';
import { Markdown } from '../../components/Markdown';
import { formatTime, formatUsd, humanize } from '../../lib/format';
import { ProgramBadges, newReportBlocker } from './ProgramBadges';
import { RouteLink } from '../../components/RouteLink';
import { ReasonedButton } from '../../components/ReasonedButton';
import { useBusyAction } from '../../components/useBusyAction';
import { focusHeading } from '../../lib/focus';
import type { ProgramSection } from '../../lib/routes';

const POLICY_SECTIONS = [
  { field: 'scope', title: 'Scope' },
  { field: 'exclusions', title: 'Exclusions' },
  { field: 'rules', title: 'Rules' },
  { field: 'eligibility', title: 'Eligibility' },
  { field: 'disclosure', title: 'Disclosure' },
] as const;

/** The heading a link to `section` lands on. */
const sectionHeadingId = (section: ProgramSection): string =>
  section === 'policy' ? 'policy-heading' : `policy-${section}-heading`;

function RewardTable({ program }: { program: Program }) {
  return (
    <table aria-label="Rewards" className="rewards-table">
      <thead>
        <tr>
          <th scope="col">Severity</th>
          <th scope="col">Reward (USD)</th>
        </tr>
      </thead>
      <tbody>
        {SEVERITIES.filter((s) => program.rewards[s] !== undefined).map((s) => (
          <tr key={s}>
            <th scope="row">{humanize(s)}</th>
            <td>{formatUsd(program.rewards[s] ?? 0)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function NewReportButton({ program }: { program: Program }) {
  const readOnly = useReadOnlyReason();
  const [busy, runBusy] = useBusyAction();
  const reason = readOnly ?? newReportBlocker(program);
  async function create(): Promise<void> {
    if (reason || busy) return;
    await runBusy(async () => {
      const draft = await bridge.createDraft(program.id);
      navigate({ name: 'report', reportId: draft.reportId });
    });
  }
  useCommand('new-report', () => void create());
  return (
    <div className="action-row">
      <ReasonedButton className="primary" reason={reason} busy={busy} onClick={() => void create()}>
        New report
      </ReasonedButton>
    </div>
  );
}

export function ProgramScreen({
  programId,
  section,
}: {
  programId: string;
  /** The part of the page a link asked for: scrolled to, its heading focused. */
  section: ProgramSection | null;
}) {
  const program = usePrograms((s) => s.programs.get(programId));
  const loadProgram = usePrograms((s) => s.loadProgram);
  // Each finished sync may bring a new policy ("Sync now" refreshes the programs too).
  const lastSyncAt = useSession((s) => s.status?.lastSyncAt ?? null);
  useEffect(() => {
    void loadProgram(programId);
  }, [programId, loadProgram, lastSyncAt]);

  const loaded = !!program;
  useEffect(() => {
    if (!loaded || !section) return;
    const heading = document.getElementById(sectionHeadingId(section));
    if (!heading) return;
    heading.scrollIntoView({ block: 'start' });
    focusHeading(heading);
  }, [loaded, section]);

  if (program === undefined) return <p className="loading">Loading program…</p>;
  if (program === null) {
    return (
      <div className="screen">
        <h1>Program not found</h1>
        <p>It is not in the offline copy yet, or it is private. Sync and try again.</p>
      </div>
    );
  }
  return (
    <div className="screen program-screen">
      <p className="breadcrumb">
        <RouteLink to={{ name: 'programs' }}>← All programs</RouteLink>
      </p>
      <h1>{program.name}</h1>
      <div className="row-meta">
        <span>{program.customer_name}</span>
        <ProgramBadges program={program} />
        <span>Intake {program.intake}</span>
        <span>{program.pool_paused ? 'Reward pool paused' : 'Reward pool active'}</span>
        <span>Policy version {program.policy_version}</span>
        <span>Updated {formatTime(program.updated_at)}</span>
      </div>
      <NewReportButton program={program} />
      <p className="row-summary">{program.summary}</p>
      <Markdown source={program.description} headingOffset={2} />
      <h2>Rewards</h2>
      <RewardTable program={program} />
      <section aria-labelledby={sectionHeadingId('policy')} className="policy">
        <h2 id={sectionHeadingId('policy')}>Policy</h2>
        {POLICY_SECTIONS.map(({ field, title }) => (
          <div key={field} className="policy-section">
            <h3 id={`policy-${field}-heading`}>{title}</h3>
            <Markdown source={program[field]} headingOffset={3} />
          </div>
        ))}
      </section>
    </div>
  );
}
