/**
 * The places the credential scan reads in a report: its draft's text fields, its queued replies
 * and its text evidence files, each with the key its decisions are remembered by.
 */
import type { FindingPlace, SecretFindingView } from '@shared/bridge/evidence-views';
import type { DraftContent, DraftField } from '@shared/bridge/views';
import type { FileScan } from '../evidence/secret-scan/file-scan';
import type { SecretFinding } from '../evidence/secret-scan/scan';
import type { OutboxEntry } from '../store';

/** The draft fields that hold free text a credential can hide in (not the CVSS vector). */
export type TextField = Exclude<DraftField, 'cvss_vector'>;
const FIELDS: TextField[] = ['title', 'asset', 'description'];
const FIELD_LABELS: Record<TextField, string> = {
  title: 'Title',
  asset: 'Asset',
  description: 'Description',
};

/** One text the scan reads: a draft field, a queued message body or an evidence file. */
export interface Place {
  key: string;
  place: FindingPlace;
  label: string;
  text: string;
  ext: string;
  /** For a file: its scan, read by what it holds (HAR, Burp export, any text). */
  file?: FileScan;
}

/** Findings of one place, each with where in the place it is ("line 3", "entry 2, …"). */
export type PlacedFinding = SecretFinding & { where: string };

export function fieldPlaces(content: Pick<DraftContent, TextField>): Place[] {
  return FIELDS.map((field) => ({
    key: field,
    place: { kind: 'field', field },
    label: FIELD_LABELS[field],
    text: content[field],
    ext: field === 'description' ? '.md' : '.txt',
  }));
}

export function messagePlace(entry: OutboxEntry<'post_message'>): Place {
  return {
    key: `message:${entry.localId ?? entry.id}`,
    place: { kind: 'message', entryId: entry.id },
    label: 'Reply waiting to be sent',
    text: entry.payload.body,
    ext: '.md',
  };
}

/** The place a finding is in, without where inside it: "session.har", "Description". */
export function placeName(finding: SecretFindingView): string {
  if (finding.place.kind === 'file') return finding.place.name;
  if (finding.place.kind === 'field') return FIELD_LABELS[finding.place.field];
  return finding.where.replace(/, line \d+$/, '');
}
