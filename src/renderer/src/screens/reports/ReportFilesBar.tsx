import { useState, type DragEvent } from 'react';
import type { ImportReportsInput, ImportProblemView } from '@shared/bridge/report-file-views';
import type { ReportListItemView } from '@shared/bridge/views';
import { bridge, tokensForFiles } from '../../bridge';
import { countOf } from '@shared/words/count';
import { useBusyAction } from '../../components/useBusyAction';
import { savePdf as printToPdf, usePrinting } from '../../stores/printing';
import { navigate } from '../../stores/router';
import { REPORT_BLOCK, useReports } from '../../stores/reports';
import { useReadOnlyReason } from '../../stores/session';
import { TemplatesDialog } from './TemplatesDialog';

/** One array for "nothing loaded": a new one per render would re-render forever. */
const NONE: ReportListItemView[] = [];

/** The import buttons: what main's dialog picks, and the button's words. */
const IMPORT_PICKS = [
  ['files', 'Import Markdown…'],
  ['folder', 'Import folder…'],
] as const;

type Outcome =
  { kind: 'done'; text: string } | { kind: 'problems'; problems: ImportProblemView[] } | null;

/** "report.md line 4: program: …": the file, the line, the field, what is wrong. */
function problemText(p: ImportProblemView): string {
  return `${p.file}${p.line > 0 ? ` line ${p.line}` : ''}: ${p.field}: ${p.message}`;
}

/**
 * Reports as Markdown files. Export the open report or the reports listed (the first
 * block of the list as filtered) to a folder main's dialog picks; import report files or a
 * folder of them as new drafts. An import with any problem makes nothing and lists every
 * problem with its file and line.
 */
export function ReportFilesBar({ selectedId }: { selectedId: string | null }) {
  const readOnly = useReadOnlyReason();
  const listed = useReports((s) => s.blocks[0] ?? NONE);
  const total = useReports((s) => s.total);
  const reload = useReports((s) => s.reload);
  const [busy, runBusy] = useBusyAction();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [templates, setTemplates] = useState(false);
  const savedPdf = usePrinting((s) => s.savedTo);

  // A new action clears what the last one said.
  function run(action: () => Promise<void>): Promise<void> {
    setOutcome(null);
    usePrinting.setState({ savedTo: null });
    return runBusy(action);
  }

  const exportIds = (ids: string[]) =>
    run(async () => {
      const result = await bridge.exportReports(ids);
      if (!result) return;
      const missing = result.reports.flatMap((r) => r.missing);
      setOutcome({
        kind: 'done',
        text:
          `Exported ${countOf(result.reports.length, 'report')} to ${result.savedTo}` +
          (missing.length > 0
            ? `; not exported (not on this computer): ${missing.join(', ')}`
            : ''),
      });
    });

  /** The open report's print view, printed by main to where its dialog says. */
  const savePdf = (reportId: string) =>
    run(async () => {
      await printToPdf(() => bridge.saveReportPdf(reportId));
    });

  const importFrom = (input: ImportReportsInput) =>
    run(async () => {
      const result = await bridge.importReports(input);
      if (!result) return;
      if (result.problems.length > 0) {
        setOutcome({ kind: 'problems', problems: result.problems });
        return;
      }
      setOutcome({
        kind: 'done',
        text: `Imported ${countOf(result.created.length, 'draft')}: ${result.created
          .map((c) => c.title || '(untitled)')
          .join(', ')}`,
      });
      await reload();
      const first = result.created[0];
      if (first) navigate({ name: 'report', reportId: first.reportId });
    });

  /** Report files dropped on the bar: main turns each into a token; the page never sees a path. */
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    const files = [...e.dataTransfer.files];
    if (files.length === 0 || readOnly !== null) return;
    void (async () => {
      const { picked, refused } = await tokensForFiles(files);
      if (picked.length > 0) {
        await importFrom({ files: picked.map((p) => p.token) });
        return;
      }
      setOutcome({
        kind: 'problems',
        problems: refused.map((name) => ({
          file: name,
          line: 0,
          field: 'file',
          message: 'is not a file on this computer',
        })),
      });
    })();
  };

  const shown = listed.length;
  return (
    <div
      className="report-files"
      aria-label="Reports as Markdown files"
      role="group"
      onDragOver={(e) => e.preventDefault()}
      onDrop={onDrop}
    >
      <button
        type="button"
        disabled={busy || selectedId === null}
        onClick={() => selectedId && void exportIds([selectedId])}
      >
        Export report…
      </button>
      <button
        type="button"
        disabled={busy || selectedId === null}
        onClick={() => selectedId && void savePdf(selectedId)}
      >
        Save as PDF…
      </button>
      <button
        type="button"
        disabled={busy || shown === 0}
        title={`Export the reports listed (the first ${REPORT_BLOCK} of a longer list)`}
        onClick={() => void exportIds(listed.map((r) => r.id))}
      >
        {total !== null && total > shown ? `Export first ${shown}…` : `Export ${shown} listed…`}
      </button>
      {IMPORT_PICKS.map(([pick, label]) => (
        <button
          key={pick}
          type="button"
          disabled={busy || readOnly !== null}
          onClick={() => void importFrom({ pick })}
        >
          {label}
        </button>
      ))}
      <button type="button" onClick={() => setTemplates(true)}>
        Templates…
      </button>
      {templates ? (
        <TemplatesDialog draftId={selectedId} onClose={() => setTemplates(false)} />
      ) : null}
      {savedPdf !== null && outcome === null ? (
        <p role="status" className="muted report-files-outcome">
          Saved as PDF to {savedPdf}
        </p>
      ) : null}
      {outcome?.kind === 'done' ? (
        <p role="status" className="muted report-files-outcome">
          {outcome.text}
        </p>
      ) : null}
      {outcome?.kind === 'problems' ? (
        <div role="alert" className="report-files-problems">
          <p>Nothing was imported: {countOf(outcome.problems.length, 'problem')} to fix first.</p>
          <ul>
            {outcome.problems.map((p, i) => (
              <li key={i}>{problemText(p)}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
