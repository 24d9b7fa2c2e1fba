/**
 * Views of the evidence features ("evidence that never leaks, reports that pass triage the first time,
 * earnings at a glance"): the credential scan, HTTP evidence import, evidence images, the
 * duplicate hint and payouts. Plain data for the renderer; never a secret value or a file path.
 */
import type { HttpEvidenceFormat } from '../evidence/http-detect';
import type { PayoutStatus, ReportStatus } from '../api';

/** Where a credential was found. */
export type FindingPlace =
  | { kind: 'field'; field: 'title' | 'asset' | 'description' }
  | { kind: 'file'; fileId: string; name: string }
  | { kind: 'message'; entryId: number };

export interface SecretFindingView {
  /** Stable while the place holds the same value: `<place>#<fingerprint>`. */
  id: string;
  place: FindingPlace;
  /** "Description, line 12", "session.har, line 3", "Reply waiting to be sent, line 1". */
  where: string;
  /** Short kind, as written in `[REDACTED:<kind>]`. */
  kind: string;
  /** What it is, for a person: "JSON Web Token", "Cookie header Cookie"… */
  label: string;
  line: number;
  column: number;
  /** The value's length in the scanned text (shown in `preview` too). */
  length: number;
  /** How many times the value occurs in this place (one action treats them all). */
  occurrences: number;
  /**
   * The start of the value's SHA-256 (hex), as in `id`: Show checks that the text it is about to
   * select is the value. Tells nothing the description it is found in does not.
   */
  fingerprint: string;
  /** The first characters and the length, never the value. */
  preview: string;
  /** The researcher chose to keep it (remembered per place and value). */
  kept: boolean;
}

export interface NotScannedFile {
  fileId: string;
  name: string;
  size: number;
}

export interface SecretScanView {
  reportId: string;
  findings: SecretFindingView[];
  /** Findings not kept: while any remain, nothing that holds them is sent. */
  open: number;
  /** Evidence files read as text (any text, HAR, Burp export) and scanned, whatever their size. */
  scannedFiles: number;
  /** Evidence files that are not text (archives, PDFs, videos; images aside): named, not scanned. */
  notScanned: NotScannedFile[];
}

export interface HttpImportInput {
  /** The pasted text or the dropped file's text. */
  text: string;
  /** The dropped file's name, when it was a file. */
  name?: string;
  /** Where the block goes in the description (a Markdown offset); the end when absent. */
  insertAt?: number;
}

export interface HttpImportResult {
  /** False when the text is not HTTP evidence the app reads (it is left to the caller). */
  imported: boolean;
  format?: HttpEvidenceFormat;
  /**
   * Set when the text is of a known format but cannot be read: what failed and where. The text
   * is then kept as it was given (`kept`), nothing is lost.
   */
  error?: string;
  kept?: 'text' | 'file';
  exchanges?: number;
  /** Credentials replaced by `[REDACTED:<kind>]` before anything was stored. */
  redacted?: number;
  /** The text evidence file made for a large import (full bodies, redacted). */
  fileName?: string;
  /** Bodies that are not text, attached as evidence files of their own. */
  bodyFiles?: string[];
  /** Characters added to the description (the block and the file's link): the next drop point. */
  insertedChars?: number;
}

export interface EvidenceImageView {
  /** Checked against the bytes: only these four raster types are ever shown. */
  contentType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
  base64: string;
}

export interface SimilarReportView {
  id: string;
  title: string;
  status: ReportStatus | 'draft';
  displayStatus: string;
  /** Why it is listed: "same asset", "similar title (3 of 4 words)". */
  reasons: string[];
}

export type PayoutStepName = 'approved' | 'transferred' | 'received' | 'failed';

export interface PayoutRowView {
  reportId: string;
  title: string;
  programId: string;
  programName: string;
  status: PayoutStatus;
  amountCents: number;
  /** Each step that happened, in order, with its time. */
  steps: { step: PayoutStepName; at: string }[];
  /** `YYYY-MM` of the approval (the month the reward was earned); null if not known. */
  month: string | null;
}

export interface PayoutTotal {
  key: string;
  label: string;
  count: number;
  amountCents: number;
}

export interface PayoutsView {
  rows: PayoutRowView[];
  total: { count: number; amountCents: number };
  byProgram: PayoutTotal[];
  byMonth: PayoutTotal[];
  /** approved (approving), transferred, received, failed: always all four, in that order. */
  byStatus: PayoutTotal[];
}
