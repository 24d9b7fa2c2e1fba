import type { ExportReportsResult, ImportReportsResult } from '@shared/bridge/report-file-views';
import type { ReadCommands } from './read-commands';
import type { SessionContext } from './session-context';

/**
 * Reports as Markdown files with front matter, to and from the user's folders. The
 * methods bear the bridge's call names (main picks the folder or files and passes their paths).
 * Their code (the YAML reader among it) loads on first use, not with the engine.
 */
export class ReportFileCommands {
  readonly #ctx: SessionContext;
  readonly #reads: ReadCommands;

  constructor(ctx: SessionContext, reads: ReadCommands) {
    this.#ctx = ctx;
    this.#reads = reads;
  }

  async exportReports(
    reportIds: readonly string[],
    destination: string,
  ): Promise<ExportReportsResult> {
    const { exportReports } = await import('./export-reports');
    return exportReports(this.#ctx, (id) => this.#reads.getReport(id), reportIds, destination);
  }

  async importReports(paths: readonly string[]): Promise<ImportReportsResult> {
    const { importReports } = await import('./import-reports');
    return importReports(this.#ctx, paths);
  }
}
