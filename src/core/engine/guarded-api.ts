import type { MessageInput, Report, ReportInput } from '../../shared/api';
import {
  ResearcherApi,
  type CallOptions,
  type ResearcherApiOptions,
  type UploadSource,
} from '../api';

/** What must hold before a write leaves the machine; each throws to hold the write back. */
export interface OutgoingChecks {
  checkDraft(
    reportId: string,
    content: Pick<ReportInput, 'title' | 'asset' | 'description'>,
  ): Promise<void>;
  checkFile(reportId: string, fileId: string): Promise<void>;
  checkMessage(reportId: string, body: string): Promise<void>;
}

/**
 * The account's API with a credential check on the three writes that carry the researcher's
 * text or files: a draft save, a file upload and a message. The check runs on exactly what is
 * about to be sent and is awaited, so nothing leaves while a scan is pending; a refusal reaches
 * the outbox as an error, which parks the write until the researcher decides.
 */
export class GuardedResearcherApi extends ResearcherApi {
  readonly #checks: () => OutgoingChecks;

  constructor(options: ResearcherApiOptions, checks: () => OutgoingChecks) {
    super(options);
    this.#checks = checks;
  }

  override async saveReport(
    reportId: string,
    input: ReportInput,
    options: CallOptions,
  ): Promise<Report> {
    await this.#checks().checkDraft(reportId, input);
    return super.saveReport(reportId, input, options);
  }

  override async uploadFile(
    reportId: string,
    fileId: string,
    source: UploadSource,
    options: CallOptions,
  ): Promise<Report> {
    await this.#checks().checkFile(reportId, fileId);
    return super.uploadFile(reportId, fileId, source, options);
  }

  override async postMessage(
    reportId: string,
    input: MessageInput,
    options: CallOptions,
  ): Promise<Report> {
    await this.#checks().checkMessage(reportId, input.body ?? '');
    return super.postMessage(reportId, input, options);
  }
}
