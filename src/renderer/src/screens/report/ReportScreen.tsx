import { useEffect } from 'react';
import { useReport } from '../../stores/report';

export function ReportScreen({ reportId }: { reportId: string }) {
  const detail = useReport((s) => s.detail);
  const open = useReport((s) => s.open);
  useEffect(() => {
    void open(reportId);
  }, [reportId, open]);
  if (detail === undefined) return <p className="loading">Loading report…</p>;
  if (detail === null) return <h1>Report not found</h1>;
  return <h1>{detail.draft?.content.title || detail.report?.title || 'Untitled draft'}</h1>;
}
