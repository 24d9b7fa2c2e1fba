import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extension } from 'mime-types';
import type { Nodes } from 'mdast';
import { LIMITS } from '@shared/api';
import { contentOf } from '@shared/bridge/draft-content';
import type { HttpImportInput, HttpImportResult } from '@shared/bridge/evidence-views';
import { endOffset, parseMarkdown, startOffset } from '@shared/rules/markdown';
import { closedAtEnd } from '@shared/rules/file-link-insertion';
import {
  fence,
  FORMAT_NAMES,
  aFormatName,
  readHttpEvidence,
  renderHttpEvidence,
  type HttpImport,
  type HttpImportFailure,
} from '../evidence/http-import';
import { scanFile } from '../evidence/secret-scan/file-scan';
import { redact, scanText } from '../evidence/secret-scan/scan';
import { EngineInputError } from './errors';
import type { EvidenceCommands } from './evidence-commands';
import { adoptDraft, queueSave } from './local-drafts';
import { reportWritten, requireWritable, type SessionContext } from './session-context';

/**
 * Where a block goes in Markdown: never inside a line. An offset inside a line moves to its end
 * (inside a heading line: under the heading, into its section); the start of a line stays, so a
 * drop at the start of a heading goes above it, as a dropped file link does.
 */
export function blockInsertPoint(markdown: string, at: number): number {
  const offset = Math.max(0, Math.min(at, markdown.length));
  // Every line of a code block is its text (a fence put there would be too): after the block.
  const code = codeBlockAround(markdown, offset);
  if (code) return endOffset(code);
  const lineStart = markdown.lastIndexOf('\n', offset - 1) + 1;
  if (offset === lineStart) return offset;
  const lineEnd = markdown.indexOf('\n', offset);
  return lineEnd === -1 ? markdown.length : lineEnd;
}

/** The code block (fenced or indented, in a list or a quote too) holding `offset` past its start. */
function codeBlockAround(markdown: string, offset: number): Nodes | null {
  if (!/```|~~~|^ {4}|\t/m.test(markdown)) return null;
  const around = (node: Nodes): Nodes | null => {
    if (endOffset(node) < offset || startOffset(node) >= offset) return null;
    if (node.type === 'code') return node;
    if (!('children' in node)) return null;
    for (const child of node.children as Nodes[]) {
      const found = around(child);
      if (found) return found;
    }
    return null;
  };
  return around(parseMarkdown(markdown));
}

/** `markdown` with `block` as its own paragraph at `at`: blank lines around it, none doubled. */
export function insertBlock(
  markdown: string,
  at: number,
  block: string,
): { text: string; end: number } {
  const point = blockInsertPoint(markdown, at);
  // After a fence never closed (a description imported from a file), the block would be its text.
  const head = point === markdown.length ? closedAtEnd(markdown) : markdown.slice(0, point);
  const before = head.replace(/\n*$/, '');
  const after = markdown.slice(point).replace(/^\n*/, '');
  const lead = before === '' ? '' : '\n\n';
  const text = `${before}${lead}${block}${after === '' ? '\n' : `\n\n${after}`}`;
  return { text, end: before.length + lead.length + block.length };
}

/** Binary bodies of one import attached as files: enough for evidence, never a flood. */
const MAX_BODY_FILES = 10;

/**
 * HTTP evidence import: a pasted or dropped HAR, Burp export, curl or
 * PowerShell command or raw exchange becomes a redacted block in the description (and files for
 * what does not fit); what cannot be read is kept, never dropped.
 */
export class HttpImportCommands {
  readonly #ctx: SessionContext;
  readonly #evidence: EvidenceCommands;
  readonly #ownKeys: string[];

  constructor(ctx: SessionContext, evidence: EvidenceCommands, ownKeys: string[]) {
    this.#ctx = ctx;
    this.#evidence = evidence;
    this.#ownKeys = ownKeys;
  }

  /** Every credential the scan finds in new text is redacted before it is stored anywhere. */
  async #redacted(text: string, ext: string): Promise<{ text: string; count: number }> {
    const findings = await scanText(text, { ownKeys: this.#ownKeys, ext });
    return { text: redact(text, findings), count: findings.length };
  }

  /**
   * A file kept as given, redacted as the file scan reads it: a HAR part by part, a Burp
   * export's base64 messages decoded (a text scan would miss what base64 hides).
   */
  async #redactedFile(text: string): Promise<{ text: string; count: number }> {
    const scan = await scanFile(Buffer.from(text, 'utf8'), { ownKeys: this.#ownKeys, ext: '.txt' });
    const fingerprints = new Set(scan.findings.map((f) => f.fingerprint));
    return { text: (await scan.redact(fingerprints)).toString('utf8'), count: fingerprints.size };
  }

  /**
   * Pasted or dropped HTTP evidence becomes a fenced block in the description at `insertAt`; a
   * large one also becomes a text evidence file (all bodies, redacted) linked below the block.
   */
  async importHttpEvidence(
    reportId: string,
    input: HttpImportInput,
  ): Promise<HttpImportResult & { insertedChars: number }> {
    requireWritable(this.#ctx);
    const { store } = this.#ctx;
    if (!adoptDraft(store, reportId))
      throw new EngineInputError('report_id', 'only a draft takes evidence');
    const read = readHttpEvidence(input.text);
    if (!read) return { imported: false, insertedChars: 0 };
    if ('error' in read) return this.#keepUnread(reportId, input, read);
    const parsed = read;
    const rendered = renderHttpEvidence(parsed);
    const block = await this.#redacted(rendered.markdown, '.md');
    let redactedCount = block.count;
    const draft = adoptDraft(store, reportId);
    if (!draft) throw new EngineInputError('report_id', 'only a draft takes evidence');
    const tooLong = draft.description.length + block.text.length + 4 > LIMITS.descriptionChars;
    const needsFile = rendered.needsFile || tooLong;
    const shown = tooLong
      ? `_From ${aFormatName(parsed.format)}: ${parsed.exchanges.length} request${parsed.exchanges.length === 1 ? '' : 's'}, in the file below._`
      : block.text;
    const at = input.insertAt ?? draft.description.length;
    const inserted = insertBlock(draft.description, at, shown);
    store.db.transaction(() => {
      store.drafts.setContent(reportId, draft.programId, {
        ...contentOf(draft),
        description: inserted.text,
      });
      queueSave(store, reportId);
    });
    let fileName: string | undefined;
    let insertedChars = inserted.text.length - draft.description.length;
    if (needsFile) {
      const full = await this.#redacted(rendered.fullText, '.http');
      redactedCount += full.count;
      fileName = httpFileName(input.name, parsed.format);
      const dir = join(tmpdir(), `bounty-desk-import-${randomUUID()}`);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      try {
        await writeFile(join(dir, fileName), full.text, { mode: 0o600 });
        const before = store.drafts.get(reportId)?.description.length ?? 0;
        await this.#evidence.attachFiles(reportId, [
          { path: join(dir, fileName), insertAt: inserted.end },
        ]);
        insertedChars += (store.drafts.get(reportId)?.description.length ?? 0) - before;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
    // Below the block and the full file's link, if there is one.
    const blockChars = inserted.text.length - draft.description.length;
    const afterLinks = inserted.end + insertedChars - blockChars;
    const bodyFiles = await this.#attachBinaryBodies(reportId, parsed, afterLinks);
    insertedChars += bodyFiles.chars;
    reportWritten(this.#ctx, reportId);
    this.#ctx.kick();
    return {
      imported: true,
      format: parsed.format,
      exchanges: parsed.exchanges.length,
      redacted: redactedCount,
      insertedChars,
      ...(fileName ? { fileName } : {}),
      ...(bodyFiles.names.length > 0 ? { bodyFiles: bodyFiles.names } : {}),
    };
  }

  /**
   * A body that is not text (an image, a PDF, protobuf) is labelled in the block, never dumped;
   * its bytes become an evidence file of their own, linked below the block, so the
   * researcher has it as recorded and can remove it. At most `MAX_BODY_FILES`, each within the
   * upload limit; images are stored without their metadata like any attached image.
   */
  async #attachBinaryBodies(
    reportId: string,
    parsed: HttpImport,
    insertAt: number,
  ): Promise<{ names: string[]; chars: number }> {
    const bodies = parsed.exchanges
      .flatMap((e, i) => [
        { message: e.request, name: `${parsed.format}-${i + 1}-request` },
        ...(e.response
          ? [{ message: e.response, name: `${parsed.format}-${i + 1}-response` }]
          : []),
      ])
      .filter((b) => b.message.binary && b.message.binary.bytes.length <= LIMITS.fileBytes)
      .slice(0, MAX_BODY_FILES);
    if (bodies.length === 0) return { names: [], chars: 0 };
    const { store } = this.#ctx;
    const before = store.drafts.get(reportId)?.description.length ?? 0;
    const dir = join(tmpdir(), `bounty-desk-import-${randomUUID()}`);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const names: string[] = [];
    try {
      let at = insertAt;
      for (const { message, name } of bodies) {
        const binary = message.binary;
        if (!binary) continue;
        const ext = extension(binary.contentType);
        const fileName = ext ? `${name}.${ext}` : `${name}.bin`;
        await writeFile(join(dir, fileName), binary.bytes, { mode: 0o600 });
        const length = store.drafts.get(reportId)?.description.length ?? 0;
        await this.#evidence.attachFiles(reportId, [{ path: join(dir, fileName), insertAt: at }]);
        at += (store.drafts.get(reportId)?.description.length ?? 0) - length;
        names.push(fileName);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    return { names, chars: (store.drafts.get(reportId)?.description.length ?? 0) - before };
  }

  /**
   * Evidence of a known format that cannot be read is kept, never dropped: a paste stays in the
   * description as a text block under a note saying what failed and where; a dropped file (or a
   * paste too long for the description) becomes an evidence file under its own name. Both are
   * redacted as an import is.
   */
  async #keepUnread(
    reportId: string,
    input: HttpImportInput,
    failure: HttpImportFailure,
  ): Promise<HttpImportResult & { insertedChars: number }> {
    const { store } = this.#ctx;
    const draft = adoptDraft(store, reportId);
    if (!draft) throw new EngineInputError('report_id', 'only a draft takes evidence');
    const what = `_Could not read this ${FORMAT_NAMES[failure.format]}: ${failure.error}._`;
    const body = input.text.replace(/\r\n/g, '\n').replace(/\n+$/, '');
    const asText = `${what} _It is kept as given._\n\n${fence(body, 'text')}`;
    const block = await this.#redacted(asText, '.md');
    const fits = draft.description.length + block.text.length + 4 <= LIMITS.descriptionChars;
    const at = input.insertAt ?? draft.description.length;
    const base = { imported: false, format: failure.format, error: failure.error };
    if (!input.name && fits && !failure.keepAsFile) {
      const inserted = insertBlock(draft.description, at, block.text);
      store.db.transaction(() => {
        store.drafts.setContent(reportId, draft.programId, {
          ...contentOf(draft),
          description: inserted.text,
        });
        queueSave(store, reportId);
      });
      reportWritten(this.#ctx, reportId);
      this.#ctx.kick();
      return {
        ...base,
        kept: 'text',
        redacted: block.count,
        insertedChars: inserted.text.length - draft.description.length,
      };
    }
    const full = await this.#redactedFile(input.text);
    const fileName =
      input.name?.replace(/[\\/:\0]/g, '_') ?? failure.keepAsFile ?? `pasted-${failure.format}.txt`;
    const dir = join(tmpdir(), `bounty-desk-import-${randomUUID()}`);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    try {
      await writeFile(join(dir, fileName), full.text, { mode: 0o600 });
      await this.#evidence.attachFiles(reportId, [{ path: join(dir, fileName), insertAt: at }]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const after = store.drafts.get(reportId)?.description.length ?? draft.description.length;
    reportWritten(this.#ctx, reportId);
    this.#ctx.kick();
    return {
      ...base,
      kept: 'file',
      fileName,
      redacted: full.count,
      insertedChars: after - draft.description.length,
    };
  }
}

function httpFileName(dropped: string | undefined, format: keyof typeof FORMAT_NAMES): string {
  const base = (dropped ?? '')
    .replace(/\.[^.]*$/, '')
    .replace(/[^\w.-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 80);
  return `${base || `${format}-capture`}.redacted.http`;
}
