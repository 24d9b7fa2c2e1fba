import type { EngineCalls } from '@engine/commands/engine';
import {
  FORWARDED_CALLS,
  type BridgeCalls,
  type ForwardedCallName,
  type MainCallName,
  type PickedFile,
} from '@shared/bridge/contract';
import { callsByName } from '@shared/bridge/calls-by-name';
import { downloadWithDialog, type SaveDialog } from './download';
import { exportPayoutsWithDialog } from './export-payouts';
import type { FileTokens } from './file-tokens';
import {
  exportReportsWithDialog,
  exportTemplatesWithDialog,
  importWithDialog,
  type FolderDialog,
} from './report-files';
import { saveReportPdfWithDialog } from './report-pdf';
import type { SandboxAccount } from './sandbox-account';
import { openSafeExternal, type ExternalOpener } from './security';
import { websitePageUrl } from './website';

/** The part of Electron's `dialog` that picks files to attach. */
export interface OpenDialog {
  showOpenDialog(options: {
    title: string;
    buttonLabel: string;
    properties: ('openFile' | 'multiSelections')[];
  }): Promise<{ canceled: boolean; filePaths: string[] }>;
}

export interface BridgeCallDeps {
  /** A call to the engine process, by name, with its arguments as they are. */
  call(name: keyof EngineCalls, args: unknown[]): Promise<unknown>;
  engine: EngineCalls;
  sandbox: Pick<SandboxAccount, 'connect' | 'forget'>;
  shell: ExternalOpener;
  dialog: SaveDialog & OpenDialog & FolderDialog;
  files: FileTokens;
  downloadsDir: string;
  /** The app window printed as PDF (Electron's `webContents.printToPDF`). */
  printToPDF(): Promise<Uint8Array>;
}

type Forwarded = Pick<BridgeCalls, ForwardedCallName>;

/**
 * Every bridge call as main answers it. The calls the table (src/shared/bridge/calls.ts) gives
 * to the engine are forwarded generically: the page's arguments go on as a list, so none can be
 * dropped on the way. Main answers those the table gives to main (they need Electron, the sandbox
 * process or a file token) here. Arguments are already checked by
 * `validateArgs` when these run.
 */
export function createBridgeCalls(deps: BridgeCallDeps): BridgeCalls {
  const { engine, sandbox, shell, files } = deps;
  const forwarded = callsByName<Forwarded>(FORWARDED_CALLS, (name, args) =>
    deps.call(name as ForwardedCallName, args),
  );
  const own: Pick<BridgeCalls, MainCallName> = {
    connectSandbox: () => sandbox.connect(),
    async connect(input) {
      const account = await engine.connect({ ...input, sandbox: false });
      await sandbox.forget();
      return account;
    },
    attachFiles: (reportId, list) =>
      engine.attachFiles(
        reportId,
        list.map(({ file, insertAt }) => ({
          path: files.resolve(file),
          ...(insertAt === undefined ? {} : { insertAt }),
        })),
      ),
    postMessage: (reportId, input) =>
      engine.postMessage(reportId, {
        body: input.body,
        filePaths: input.files.map((token) => files.resolve(token)),
      }),
    downloadFile: (reportId, fileId) => downloadWithDialog({ ...deps, engine }, reportId, fileId),
    exportPayouts: () => exportPayoutsWithDialog({ ...deps, engine }),
    // reports as Markdown files, templates
    exportReports: (ids) => exportReportsWithDialog({ ...deps, engine }, ids),
    saveReportPdf: (reportId) => saveReportPdfWithDialog({ ...deps, engine }, reportId),
    importReports: (input) =>
      importWithDialog({ ...deps, engine }, input, 'reports', (paths) =>
        engine.importReports(paths),
      ),
    exportTemplates: () => exportTemplatesWithDialog({ ...deps, engine }),
    importTemplates: (input) =>
      importWithDialog({ ...deps, engine }, input, 'templates', (paths) =>
        engine.importTemplates(paths),
      ),
    async pickFiles(): Promise<PickedFile[]> {
      const choice = await deps.dialog.showOpenDialog({
        title: 'Attach files',
        buttonLabel: 'Attach',
        properties: ['openFile', 'multiSelections'],
      });
      if (choice.canceled) return [];
      return Promise.all(choice.filePaths.map((path) => files.register(path)));
    },
    openExternal: (url) => openSafeExternal(shell, url),
    async openWebsite(page) {
      const url = await websitePageUrl(await engine.getAccount(), page);
      return url ? openSafeExternal(shell, url) : false;
    },
  };
  return { ...forwarded, ...own };
}
