import { useState } from 'react';
import type { SimilarReportView } from '@shared/bridge/evidence-views';
import { bridge } from '../../../bridge';
import { STATUS_LABELS } from '../../../lib/format';
import { ownValue } from '@shared/lookup/own';
import { RouteLink } from '../../../components/RouteLink';
import { useLoadedAfterPaint } from '../../../lib/useLoaded';

/**
 * Before submit: the researcher's own reports for the same program whose
 * asset or title is close, with their status, so a second report of the same bug is a choice.
 */
export function DuplicateHint({ reportId }: { reportId: string }) {
  const [similar, setSimilar] = useState<SimilarReportView[]>([]);
  useLoadedAfterPaint(() => bridge.findSimilarReports(reportId), setSimilar, [reportId]);
  if (similar.length === 0) return null;
  return (
    <section aria-labelledby="similar-heading" className="similar-reports">
      <h3 id="similar-heading">Similar reports of yours</h3>
      <p className="muted">Same program, close asset or title: is this already reported?</p>
      <ul aria-label="Similar reports">
        {similar.map((s) => (
          <li key={s.id}>
            <RouteLink to={{ name: 'report', reportId: s.id }}>
              {s.title || 'Untitled draft'}
            </RouteLink>{' '}
            <span className={`status status-${s.status}`}>
              {ownValue(STATUS_LABELS, s.status) ?? s.status}
            </span>
            <span className="muted"> — {s.reasons.join('; ')}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
