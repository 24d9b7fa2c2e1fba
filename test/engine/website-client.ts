import { createHash } from 'node:crypto';
import { randomUUID } from '../support/random';
import { ContractMismatchError } from '../support/openapi-validator';
import type {
  ApiOptions,
  ApiResponse,
  MessageList,
  Report,
  SandboxClient,
} from '../support/sandbox-client';

/**
 * The second writer of the chaos test: the researcher on the website, with another key of the
 * same account, over plain HTTP. Its requests meet the same injected faults as the app's, so it
 * repeats each write until it knows the outcome: safe repeats for saves, uploads and removals;
 * for a message (not idempotent) it reads the thread before repeating, and only a message after
 * the thread's end before its attempt counts (the chaos test never lets the app post the same
 * text on that report at the same time, so that match is unambiguous).
 */
export interface WebsiteFile {
  name: string;
  sha256: string;
}

/** Counts of what the website did and how often it had to repeat. */
export interface WebsiteFigures {
  requests: number;
  noAnswer: number;
  repeated: number;
}

const RETRY_STATUSES = new Set([429, 500, 503]);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class WebsiteClient {
  readonly figures: WebsiteFigures = { requests: 0, noAnswer: 0, repeated: 0 };

  constructor(
    private readonly sandbox: SandboxClient,
    private readonly key: string,
  ) {}

  /** One request; `null` when no answer came (a dropped connection). */
  async #send<T>(method: string, path: string, options: ApiOptions = {}) {
    this.figures.requests++;
    try {
      return await this.sandbox.api<T>(method, path, { token: this.key, ...options });
    } catch (error) {
      if (error instanceof ContractMismatchError) throw error;
      this.figures.noAnswer++;
      return null;
    }
  }

  /** A read, repeated until it answers 200. */
  async #read<T>(path: string): Promise<T> {
    for (let attempt = 0; attempt < 200; attempt++) {
      const res = await this.#send<T>('GET', path);
      if (res?.status === 200) return res.body;
      if (res && !RETRY_STATUSES.has(res.status)) {
        throw new Error(`website: GET ${path} gave ${res.status}: ${JSON.stringify(res.body)}`);
      }
      this.figures.repeated++;
      await pause(20);
    }
    throw new Error(`website: GET ${path} never answered`);
  }

  report(reportId: string): Promise<Report> {
    return this.#read<Report>(`/api/reports/${reportId}`);
  }

  /**
   * A write that is safe to repeat: `attempt` is made with the report as it is now, until it
   * gives an answer that is not a fault or a stale revision.
   */
  async #repeat<T>(
    reportId: string,
    attempt: (current: Report) => Promise<ApiResponse<T> | null>,
  ): Promise<ApiResponse<T>> {
    for (let n = 0; n < 200; n++) {
      const res = await attempt(await this.report(reportId));
      const code = (res?.body as { code?: string } | undefined)?.code;
      if (
        res &&
        !RETRY_STATUSES.has(res.status) &&
        code !== 'revision_conflict' &&
        code !== 'file_busy'
      ) {
        return res;
      }
      this.figures.repeated++;
      await pause(res ? 20 : 5);
    }
    throw new Error(`website: a write to ${reportId} never went through`);
  }

  /** Sets the draft's "Website note" line; false if the report is no longer a draft. */
  async editNote(reportId: string, note: string): Promise<boolean> {
    for (let n = 0; n < 200; n++) {
      const current = await this.report(reportId);
      if (current.status !== 'draft') return false;
      const description = withNote(current.description, note);
      // Set already: by an earlier attempt whose answer was lost (notes are never reused).
      if (description === current.description) return true;
      const res = await this.#send<Report>('PUT', `/api/reports/${reportId}`, {
        body: {
          program_id: current.program_id,
          title: current.title,
          asset: current.asset,
          description,
          cvss_vector: current.cvss_vector,
          revision: current.revision,
        },
      });
      if (res?.status === 200) return true;
      const code = (res?.body as { code?: string } | undefined)?.code;
      if (res && !RETRY_STATUSES.has(res.status) && code !== 'revision_conflict') {
        throw new Error(`website: saving the note gave ${res.status}: ${JSON.stringify(res.body)}`);
      }
      this.figures.repeated++;
      await pause(20);
    }
    throw new Error(`website: the note of ${reportId} was never saved`);
  }

  /**
   * Uploads a file under a new id: on a draft it attaches to the report, on a submitted one it
   * waits as a pending message file. Returns its id and whether it became a message file.
   */
  async upload(
    reportId: string,
    name: string,
    bytes: Buffer,
  ): Promise<{ fileId: string; reply: boolean }> {
    const fileId = randomUUID();
    const res = await this.#repeat<Report>(reportId, (current) =>
      this.#send<Report>('PUT', `/api/reports/${reportId}/files/${fileId}`, {
        query: { name, revision: current.revision },
        rawBody: bytes,
        contentType: 'text/plain',
      }),
    );
    const attachment = res.status === 200 ? res.body.attachments[fileId] : undefined;
    if (!attachment || attachment.state !== 'ready') {
      throw new Error(`website: upload gave ${res.status}: ${JSON.stringify(res.body)}`);
    }
    return { fileId, reply: attachment.reply === true };
  }

  /** Removes one of its files (a draft file, or a pending message file it gave up on). */
  async remove(reportId: string, fileId: string): Promise<void> {
    const res = await this.#repeat<Report>(reportId, (current) =>
      this.#send<Report>('DELETE', `/api/reports/${reportId}/files/${fileId}`, {
        query: { revision: current.revision },
      }),
    );
    // 404: an earlier attempt whose answer was lost removed it.
    if (res.status !== 200 && res.status !== 404) {
      throw new Error(`website: removing a file gave ${res.status}: ${JSON.stringify(res.body)}`);
    }
  }

  /** Posts a message exactly once, through lost answers. */
  async post(reportId: string, body: string, files: string[] = []): Promise<void> {
    const path = `/api/reports/${reportId}/messages`;
    const wanted = [...files].sort().join(',');
    let mark: number | null = null;
    for (let n = 0; n < 200; n++) {
      const thread = (await this.#read<MessageList>(path)).messages;
      if (mark !== null) {
        const since = thread.slice(mark);
        const mine = since.some(
          (m) =>
            m.author === 'researcher' &&
            m.body === body &&
            m.attachments
              .map((a) => a.id)
              .sort()
              .join(',') === wanted,
        );
        if (mine) return;
      }
      mark = thread.length;
      const res = await this.#send<Report>('POST', path, { body: { body, files } });
      if (res?.status === 200) return;
      if (res && !RETRY_STATUSES.has(res.status)) {
        throw new Error(`website: posting gave ${res.status}: ${JSON.stringify(res.body)}`);
      }
      this.figures.repeated++;
      await pause(20);
    }
    throw new Error(`website: a message to ${reportId} never went through`);
  }
}

/** The line of the description the website edits; the app never touches it. */
export const NOTE_LINE = /^Website note: .*$/m;

export function withNote(description: string, note: string): string {
  // A function: a note holding `$&` or `$1` (a pasted payload) is text, not a replacement pattern.
  return description.replace(NOTE_LINE, () => `Website note: ${note}`);
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
