import type { ReportListItem } from '../../../../shared/bridge/views';
import { Badge } from '../../components/Badge';
import { routeHash } from '../../app/routes';
import { navigate } from '../../stores/router';
import { formatTime, STATUS_LABELS } from '../../lib/format';

export function ReportBadges({ item }: { item: ReportListItem }) {
  return (
    <span className="badges">
      {item.unsent ? <Badge tone="info">Unsent</Badge> : null}
      {item.conflict ? <Badge tone="danger">Conflict</Badge> : null}
      {item.status === 'needs_info' ? <Badge tone="warn">Needs info</Badge> : null}
      {item.needsAction ? <Badge tone="warn">Needs your action</Badge> : null}
    </span>
  );
}

export function ReportRow({ item }: { item: ReportListItem }) {
  const route = { name: 'report', reportId: item.id } as const;
  return (
    <div className="report-row">
      <div className="row-head">
        <a
          href={routeHash(route)}
          onClick={(e) => {
            e.preventDefault();
            navigate(route);
          }}
        >
          {item.title.trim() || 'Untitled draft'}
        </a>
        <ReportBadges item={item} />
      </div>
      <div className="row-meta">
        <span className={`status status-${item.status}`}>
          {STATUS_LABELS[item.status] ?? item.status}
        </span>
        {item.displayStatus && item.displayStatus !== STATUS_LABELS[item.status] ? (
          <span>{item.displayStatus}</span>
        ) : null}
        <span>{item.programName}</span>
        <span>Updated {formatTime(item.updatedAt)}</span>
      </div>
    </div>
  );
}
