/**
 * Local validation before anything is sent, with the bounds of the API document (parts 2 and 8).
 * Each problem is `{ field, message }`: `field` is the API's name, and the message names the field
 * in words ("Message body is too long (12,001 of 12,000 characters)"), since it reaches the
 * researcher as it is.
 *
 * Characters: the API gives lengths in "characters" without saying which unit. JavaScript counts
 * UTF-16 code units, a Python server counts code points (`len(str)`), and an emoji is 2 of the
 * former but 1 of the latter. We count Unicode code points (`charCount`): the same as a Python
 * server, and never stricter than one that counts code units. A lone surrogate counts as one.
 */
import { formatSizes } from '@shared/rules/size';
import { LIMITS } from '@shared/api/index';
import { parseCvss31 } from '@shared/rules/index';
import { countOf, formatCount } from '@shared/words/count';
import { ownValue } from '@shared/lookup/own';

export interface FieldIssue {
  field: string;
  message: string;
}

/** Number of Unicode code points. */
export function charCount(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i += 1;
    }
    count += 1;
  }
  return count;
}

const PROGRAM_ID = new RegExp(LIMITS.programIdPattern);
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function isUuidV4(value: unknown): value is string {
  return typeof value === 'string' && UUID_V4.test(value);
}

const REPORT_INPUT_FIELDS = [
  'program_id',
  'title',
  'asset',
  'description',
  'cvss_vector',
  'revision',
] as const;

/** The API's field names in words, as a message starts with them. */
const FIELD_WORDS: Readonly<Record<string, string>> = {
  program_id: 'Program id',
  title: 'Title',
  asset: 'Asset',
  description: 'Description',
  cvss_vector: 'CVSS vector',
  revision: 'Revision',
  body: 'Message body',
  files: 'Message files',
  name: 'File name',
  size: 'File size',
};

export function fieldWords(field: string): string {
  return ownValue(FIELD_WORDS, field) ?? field;
}

function tooLong(field: string, n: number, max: number): FieldIssue {
  const message = `${fieldWords(field)} is too long (${formatCount(n)} of ${countOf(max, 'character')})`;
  return { field, message };
}

function maxChars(issues: FieldIssue[], field: string, value: string, max: number): void {
  const n = charCount(value);
  if (n > max) issues.push(tooLong(field, n, max));
}

function stringField(
  issues: FieldIssue[],
  input: Record<string, unknown>,
  field: string,
  required: boolean,
): string | undefined {
  const value = input[field];
  if (value === undefined) {
    if (required) issues.push({ field, message: `${fieldWords(field)} is required` });
    return undefined;
  }
  if (typeof value !== 'string') {
    issues.push({ field, message: `${fieldWords(field)} must be text` });
    return undefined;
  }
  return value;
}

/** A ReportInput (the body of the draft save) as the API would check it. */
export function validateReportInput(input: unknown): FieldIssue[] {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return [{ field: 'body', message: 'The report must be an object' }];
  }
  const body = input as Record<string, unknown>;
  const issues: FieldIssue[] = [];

  const programId = stringField(issues, body, 'program_id', true);
  if (programId !== undefined && !PROGRAM_ID.test(programId)) {
    issues.push({
      field: 'program_id',
      message: 'Program id must be 1 to 80 lower-case letters, digits or hyphens',
    });
  }
  const title = stringField(issues, body, 'title', true);
  if (title !== undefined) maxChars(issues, 'title', title, LIMITS.titleChars);
  const asset = stringField(issues, body, 'asset', true);
  if (asset !== undefined) maxChars(issues, 'asset', asset, LIMITS.assetChars);
  const description = stringField(issues, body, 'description', true);
  if (description !== undefined) {
    maxChars(issues, 'description', description, LIMITS.descriptionChars);
  }
  const cvss = stringField(issues, body, 'cvss_vector', false);
  if (cvss !== undefined && cvss !== '') {
    const before = issues.length;
    maxChars(issues, 'cvss_vector', cvss, LIMITS.cvssVectorChars);
    if (issues.length === before) {
      const parsed = parseCvss31(cvss);
      if (!parsed.ok) {
        issues.push({
          field: 'cvss_vector',
          message: `CVSS vector is not a valid CVSS 3.1 base vector: ${parsed.error}`,
        });
      }
    }
  }
  const revision = body.revision;
  if (revision === undefined) {
    issues.push({ field: 'revision', message: 'Revision is required' });
  } else if (typeof revision !== 'number' || !Number.isSafeInteger(revision) || revision < 0) {
    issues.push({ field: 'revision', message: 'Revision must be a whole number of at least 0' });
  }
  for (const key of Object.keys(body)) {
    if (!(REPORT_INPUT_FIELDS as readonly string[]).includes(key)) {
      issues.push({ field: key, message: `“${key}” is not a field of a report` });
    }
  }
  return issues;
}

/** C0 controls, DEL and C1 controls (Unicode category Cc). */
export function isControlCharacter(codePoint: number): boolean {
  return codePoint <= 0x1f || (codePoint >= 0x7f && codePoint <= 0x9f);
}

/** Problems with a file name (upload query `name`); each maps to `422 invalid_filename`. */
export function validateFileName(name: string): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const n = charCount(name);
  const { min, max } = LIMITS.fileNameChars;
  if (n < min) issues.push({ field: 'name', message: 'File name is empty' });
  if (n > max) issues.push(tooLong('name', n, max));
  if (name.includes('/') || name.includes('\\')) {
    issues.push({
      field: 'name',
      message: 'File name must not contain a folder separator (/ or \\)',
    });
  }
  for (const ch of name) {
    if (isControlCharacter(ch.codePointAt(0) ?? 0)) {
      issues.push({ field: 'name', message: 'File name must not contain a control character' });
      break;
    }
  }
  return issues;
}

/** A file before upload: its name, and its size in bytes (1 byte to 10 MiB). */
export function validateFile(file: { name: string; size: number }): FieldIssue[] {
  const issues = validateFileName(file.name);
  if (!Number.isSafeInteger(file.size) || file.size < 0) {
    issues.push({ field: 'size', message: 'File size must be a whole number of bytes' });
  } else if (file.size < LIMITS.fileMinBytes) {
    issues.push({ field: 'size', message: 'File size is 0: the file is empty' });
  } else if (file.size > LIMITS.fileBytes) {
    const [size, limit] = formatSizes(file.size, LIMITS.fileBytes);
    issues.push({ field: 'size', message: `is ${size}, over the limit of ${limit}` });
  }
  return issues;
}

/** A researcher message: body up to 12000 characters, up to 10 file ids, not both empty. */
export function validateMessage(message: {
  body?: string;
  files?: readonly string[];
}): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const body = message.body ?? '';
  const files = message.files ?? [];
  maxChars(issues, 'body', body, LIMITS.messageBodyChars);
  if (body.trim() === '' && files.length === 0) {
    issues.push({
      field: 'body',
      message: 'Message body is empty: write a message or attach a file',
    });
  }
  if (files.length > LIMITS.filesPerMessage) {
    issues.push({
      field: 'files',
      message: `A message takes at most ${countOf(LIMITS.filesPerMessage, 'file')}, not ${formatCount(files.length)}`,
    });
  }
  if (files.some((id) => !isUuidV4(id))) {
    issues.push({ field: 'files', message: 'Message files must be given by their ids (UUIDv4)' });
  }
  if (new Set(files).size !== files.length) {
    issues.push({ field: 'files', message: 'Message files list the same file more than once' });
  }
  return issues;
}
