import type { ExportReportsResult, ImportReportsResult } from '@shared/bridge/report-file-views';
import type { ReadCommands } from './read-commands';
import type { SessionContext } from './session-context';
import { exportReports } from './export-reports';
import { importReports } from './import-reports';

/**
 * Reports as Markdown files with front matter, to and from the user's folders. The
 * methods bear the bridge's call names (main picks the folder or files and passes their paths).
 */
export class ReportFileCommands {
  readonly #ctx: SessionContext;
  readonly #reads: ReadCommands;

  constructor(ctx: SessionContext, reads: ReadCommands) {
    this.#ctx = ctx;
    this.#reads = reads;
  }

  exportReports(reportIds: readonly string[], destination: string): Promise<ExportReportsResult> {
    return exportReports(this.#ctx, (id) => this.#reads.getReport(id), reportIds, destination);
  }

  importReports(paths: readonly string[]): Promise<ImportReportsResult> {
    return importReports(this.#ctx, paths);
  }
}
