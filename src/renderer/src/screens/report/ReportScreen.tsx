import { Suspense, useEffect, useRef, useState } from 'react';
import { useReport } from '../../stores/report';
import { listSelection } from '../../stores/report-opening';
import { usePrinting } from '../../stores/printing';
import { PrintableReport } from './page/PrintableReport';
import { SubmittedReport } from './page/SubmittedReport';
import { preloadable } from '../../lib/preloadable';
import { focusHeading, focusIsLost } from '../../lib/focus';

// The draft editor (Milkdown and its ProseMirror stack, the CVSS calculator, the scope guard) is a
// chunk of its own: most reports opened from the list are submitted ones, which never need it.
const draftEditor = preloadable(() => import('./draft/DraftEditor').then((m) => m.DraftEditor));
const DraftEditor = draftEditor.Component;
/** Loads the draft editor's code before a draft is opened (the reports list's idle prefetch). */
export const preloadDraftEditor = draftEditor.preload;

/** A draft opens in the editor; anything the server holds as submitted opens as its page. */
export function ReportScreen({ reportId }: { reportId: string }) {
  const detail = useReport((s) => (s.reportId === reportId ? s.detail : undefined));
  const open = useReport((s) => s.open);
  const printing = usePrinting((s) => s.printing);
  // Opened from the reports list (a click, the arrow keys): the keyboard focus stays there.
  const [fromList] = useState(() => listSelection.openedFromList === reportId);
  useEffect(() => {
    void open(reportId);
  }, [reportId, open]);
  // The page a report turns into (the draft submitted, the report opened) starts at its top, not
  // at the scroll position the editor had.
  const submitted = !!detail?.report && detail.report.status !== 'draft';
  // The draft shown here turned into its submitted page (its submit went out): the focus was in
  // the draft, which is gone, and goes to the page's heading rather than to the window.
  const draftShown = useRef(false);
  useEffect(() => {
    // In the frame about to paint it: a scroll lays the page out, and now that layout would be
    // done twice (the editor's document is not in the page yet), 3-6 ms of each open.
    const frame = requestAnimationFrame(() => {
      // Beside the reports list the report scrolls in its own pane.
      const pane =
        document.querySelector('.workspace-detail') ?? document.querySelector('main.content');
      pane?.scrollTo({ top: 0 });
      const heading = pane?.querySelector<HTMLElement>('h1');
      if (submitted && draftShown.current && heading && focusIsLost()) focusHeading(heading);
    });
    return () => cancelAnimationFrame(frame);
  }, [reportId, submitted]);
  // After the effect above: it reads whether a draft showed before this render.
  useEffect(() => {
    if (detail?.draft && !submitted) draftShown.current = true;
  });
  if (detail === undefined) return <p className="loading">Loading report…</p>;
  // Listed but not downloaded yet (the first mirror has not reached it): the engine fetches it
  // now, ahead of everything else, and the screen follows when it is in.
  if (detail?.download && !detail.report && !detail.draft) {
    return detail.download.state === 'downloading' ? (
      <div className="screen">
        <p className="loading" role="status">
          Downloading this report…
        </p>
      </div>
    ) : (
      <div className="screen">
        <h1>This report could not be downloaded</h1>
        <p role="alert">
          {detail.download.error.title}. {detail.download.error.advice}
        </p>
      </div>
    );
  }
  if (detail === null) {
    return (
      <div className="screen">
        <h1>Report not found</h1>
        <p>It is not in the offline copy. Sync and try again.</p>
      </div>
    );
  }
  const report = detail.report;
  // Printing (Save as PDF…, the OS print dialog) shows only this, outside the app's root.
  const print = printing ? <PrintableReport detail={detail} /> : null;
  if (report && report.status !== 'draft')
    return (
      <>
        <SubmittedReport detail={detail} report={report} />
        {print}
      </>
    );
  if (detail.draft)
    return (
      <>
        <Suspense fallback={<p className="loading">Loading the editor…</p>}>
          <DraftEditor
            key={detail.id}
            detail={detail}
            draft={detail.draft}
            focusTitle={!fromList}
          />
        </Suspense>
        {print}
      </>
    );
  return (
    <div className="screen">
      <h1>{report?.title ?? 'Report'}</h1>
      <p>This draft has no local copy yet. Sync to fetch it.</p>
    </div>
  );
}
