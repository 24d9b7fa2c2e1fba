import type {
  ExportReportsResult,
  ImportReportsResult,
} from '../../shared/bridge/report-file-views';
import type { ReadModel } from './read-model';
import type { SessionContext } from './session-context';
import { exportReports } from './export-reports';
import { importReports } from './import-reports';

/**
 * Reports as Markdown files with front matter, to and from the user's folders. The
 * methods bear the bridge's call names (main picks the folder or files and passes their paths).
 */
export class ReportFileCommands {
  readonly #ctx: SessionContext;
  readonly #views: ReadModel;

  constructor(ctx: SessionContext, views: ReadModel) {
    this.#ctx = ctx;
    this.#views = views;
  }

  exportReports(reportIds: readonly string[], destination: string): Promise<ExportReportsResult> {
    return exportReports(this.#ctx, (id) => this.#views.getReport(id), reportIds, destination);
  }

  importReports(paths: readonly string[]): Promise<ImportReportsResult> {
    return importReports(this.#ctx, paths);
  }
}
