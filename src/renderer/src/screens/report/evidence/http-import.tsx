import type { ClipboardEvent, ReactNode } from 'react';
import type { HttpImportResult } from '@shared/bridge/evidence-views';
import {
  detectHttpEvidence,
  mayBeHttpEvidenceFile,
  unreadEvidenceNote,
  type HttpEvidenceFormat,
} from '@shared/evidence/http-detect';
import { bridge } from '../../../bridge';

/** A point in the description: a Markdown offset and the document it refers to. */
export type DropPoint = { offset: number; markdown: string } | null;

export interface HttpItem {
  text: string;
  name?: string;
}

/** The upload limit: a larger capture is attached as a file, not read into the page. */
const MAX_TEXT_BYTES = 10 * 1024 * 1024;

/**
 * The dropped files that are HTTP evidence (HAR, Burp XML export, raw HTTP, curl), read as text.
 * Null unless every file is: a mixed drop is attached as files, as before.
 */
export async function httpEvidenceFiles(files: File[]): Promise<HttpItem[] | null> {
  if (files.length === 0) return null;
  const items: HttpItem[] = [];
  for (const file of files) {
    if (!mayBeHttpEvidenceFile(file.name) || file.size > MAX_TEXT_BYTES) return null;
    const text = await file.text().catch(() => '');
    if (!detectHttpEvidence(text)) return null;
    items.push({ text, name: file.name });
  }
  return items;
}

/** A note for each dropped file with an evidence name that is attached as a file instead. */
export async function unreadEvidenceFiles(files: File[]): Promise<string[]> {
  const notes: string[] = [];
  for (const file of files) {
    if (!mayBeHttpEvidenceFile(file.name)) continue;
    const text = file.size > MAX_TEXT_BYTES ? null : await file.text().catch(() => '');
    const note = unreadEvidenceNote(file.name, text, files.length > 1);
    if (note) notes.push(note);
  }
  return notes;
}

/**
 * Imports each item at the point (then after the previous one). `prepare` makes the engine hold
 * the document the point refers to (the editor saves what is typed) before anything is inserted.
 */
export async function importHttpItems(
  reportId: string,
  items: HttpItem[],
  at: DropPoint,
  prepare: (at: DropPoint) => Promise<void>,
): Promise<string[]> {
  await prepare(at);
  let offset = at?.offset;
  const problems: string[] = [];
  for (const item of items) {
    const result = await bridge.importHttpEvidence(reportId, {
      text: item.text,
      ...(item.name ? { name: item.name } : {}),
      ...(offset === undefined ? {} : { insertAt: offset }),
    });
    if (result.error) problems.push(unreadMessage(item, result));
    if (offset !== undefined) offset += result.insertedChars ?? 0;
  }
  return problems;
}

const FORMAT_LABEL: Record<HttpEvidenceFormat, string> = {
  har: 'HAR file',
  burp: 'Burp Suite export',
  curl: 'curl command',
  powershell: 'PowerShell command',
  raw: 'HTTP request',
};

/** What failed, where, and where the text went: nothing pasted or dropped is ever lost. */
function unreadMessage(item: HttpItem, result: HttpImportResult): string {
  const what = result.format ? FORMAT_LABEL[result.format] : 'evidence';
  const source = item.name ? `"${item.name}" (${what})` : `the pasted ${what}`;
  const kept =
    result.kept === 'file'
      ? `It is kept as the evidence file ${result.fileName ?? ''}.`
      : 'It is kept in the description as text.';
  return `Could not read ${source}: ${result.error ?? 'unknown error'}. ${kept}`;
}

/**
 * Catches a paste of HTTP evidence before the Markdown editor reads it (capture phase): a raw
 * request, a HAR, a Burp export or a curl command becomes a code block instead of a paragraph.
 * Not where the researcher pastes into code (`inCode`): there the editor keeps the text as it is,
 * in the block the caret is in (an import would put a block of its own inside that one).
 */
export function HttpPasteZone({
  disabled,
  inCode,
  onEvidence,
  children,
}: {
  disabled: boolean;
  inCode(): boolean;
  onEvidence(text: string): void;
  children: ReactNode;
}) {
  function onPasteCapture(e: ClipboardEvent<HTMLDivElement>): void {
    if (disabled || inCode()) return;
    const text = e.clipboardData.getData('text/plain');
    if (!text || !detectHttpEvidence(text)) return;
    e.preventDefault();
    e.stopPropagation();
    onEvidence(text);
  }
  return (
    <div className="http-paste-zone" onPasteCapture={onPasteCapture}>
      {children}
    </div>
  );
}
