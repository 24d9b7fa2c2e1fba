import { memo } from 'react';
import type { ReportListItemView } from '@shared/bridge/views';
import { cvssSeverity } from '@shared/rules/cvss-severity';
import { Badge } from '../../components/Badge';
import { routeHash } from '../../lib/routes';
import { openFromList } from '../../stores/reports';
import { useReport } from '../../stores/report';
import { formatShortTime, formatTime, humanize, statusLabel } from '../../lib/format';

/** A submit or withdraw on its way: said in the status's place until the server has it. */
const QUEUED_LABELS = { submit: 'Submitting', withdraw: 'Withdrawing' } as const;

export function ReportBadges({ item }: { item: ReportListItemView }) {
  return (
    <span className="badges">
      {item.unsent ? <Badge tone="info">Unsent</Badge> : null}
      {item.conflict ? <Badge tone="danger">Conflict</Badge> : null}
      {/* A question waiting is said by the status itself (once): the badge is for the rest. */}
      {item.needsAction && item.status !== 'needs_info' ? (
        <Badge tone="warn">Needs your action</Badge>
      ) : null}
    </span>
  );
}

/**
 * One report of the list. Its link opens the report beside the list (the keyboard focus stays
 * in the list); only the selected row, or the one the list last focused, is a tab stop.
 * Memoized: a block of rows arriving while the list scrolls re-renders only its own rows.
 */
export const ReportRow = memo(function ReportRow({
  item,
  selected = false,
  tabStop = true,
}: {
  item: ReportListItemView;
  selected?: boolean;
  tabStop?: boolean;
}) {
  const route = { name: 'report', reportId: item.id } as const;
  const severity = item.severity ?? null;
  return (
    <div className={selected ? 'report-row selected' : 'report-row'}>
      <div className="row-head">
        <a
          href={routeHash(route)}
          aria-current={selected ? 'true' : undefined}
          tabIndex={tabStop ? 0 : -1}
          onPointerDown={(e) => {
            if (e.button === 0) useReport.getState().readOnPress(item.id);
          }}
          onClick={(e) => {
            e.preventDefault();
            openFromList(item.id);
          }}
        >
          {item.title.trim() || 'Untitled draft'}
        </a>
        <ReportBadges item={item} />
      </div>
      <div className="row-meta">
        <span className={`status status-${item.status}`}>
          {item.queuedAction
            ? QUEUED_LABELS[item.queuedAction]
            : statusLabel(item.status, item.displayStatus)}
        </span>
        {/* The name gives way first in a narrow row: whole on hover. */}
        <span className="program" title={item.programName}>
          {item.programName}
        </span>
        {severity !== null ? (
          <span className="severity">
            CVSS {severity.toFixed(1)} {humanize(cvssSeverity(severity))}
          </span>
        ) : null}
        <time
          dateTime={item.updatedAt ?? undefined}
          title={`Updated ${formatTime(item.updatedAt)}`}
        >
          {formatShortTime(item.updatedAt)}
        </time>
      </div>
    </div>
  );
});
