import type { Engine } from '../core/engine';
import type { BridgeCalls } from '../shared/bridge/contract';
import { downloadWithDialog, type SaveDialog } from './download';
import type { SandboxAccount } from './sandbox-account';
import { openSafeExternal, type ExternalOpener } from './security';
import { websitePageUrl } from './website';

export interface BridgeCallDeps {
  engine: Engine;
  sandbox: Pick<SandboxAccount, 'connect' | 'forget'>;
  shell: ExternalOpener;
  dialog: SaveDialog;
  downloadsDir: string;
}

/**
 * Every bridge call as main answers it: the engine's own calls as they are, plus the few that
 * need Electron or the embedded sandbox (sign-in to the sandbox, save dialog, OS browser).
 * Arguments are already checked by `validateArgs` when these run.
 */
export function createBridgeCalls(deps: BridgeCallDeps): BridgeCalls {
  const { engine, sandbox, shell } = deps;
  return {
    getAccount: () => engine.getAccount(),
    connectSandbox: () => sandbox.connect(),
    async connect(input) {
      const account = await engine.connect({ ...input, sandbox: false });
      await sandbox.forget();
      return account;
    },
    async signOut() {
      await engine.signOut();
      await sandbox.forget();
    },
    getStatus: () => engine.getStatus(),
    syncNow: () => engine.syncNow(),
    listPrograms: (query) => engine.listPrograms(query),
    getProgram: (programId) => engine.getProgram(programId),
    listReports: (query) => engine.listReports(query),
    getReport: (reportId) => engine.getReport(reportId),
    createDraft: (programId) => engine.createDraft(programId),
    saveDraft: (reportId, content) => engine.saveDraft(reportId, content),
    resolveConflicts: (reportId, choices) => engine.resolveConflicts(reportId, choices),
    attachFiles: (reportId, files) => engine.attachFiles(reportId, files),
    removeFile: (reportId, fileId) => engine.removeFile(reportId, fileId),
    getChecklist: (reportId) => engine.getChecklist(reportId),
    submit: (reportId) => engine.submit(reportId),
    withdraw: (reportId) => engine.withdraw(reportId),
    postMessage: (reportId, input) => engine.postMessage(reportId, input),
    markThreadRead: (reportId) => engine.markThreadRead(reportId),
    downloadFile: (reportId, fileId) => downloadWithDialog(deps, reportId, fileId),
    retryEntry: (entryId) => engine.retryEntry(entryId),
    discardEntry: (entryId) => engine.discardEntry(entryId),
    refreshPayments: () => engine.refreshPayments(),
    sendVerificationEmail: () => engine.sendVerificationEmail(),
    openExternal: (url) => openSafeExternal(shell, url),
    async openWebsite(page) {
      const url = await websitePageUrl(await engine.getAccount(), page);
      return url ? openSafeExternal(shell, url) : false;
    },
  };
}
