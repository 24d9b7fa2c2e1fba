/**
 * The sandbox's stored records. Plain JSON-able objects, so persistence is one snapshot. Fields
 * ending in `_ms` are sandbox-clock milliseconds kept next to the ISO strings the API shows.
 */
import type {
  Attachment,
  Decision,
  Intake,
  KeyScope,
  Message,
  PaymentsAccountStatus,
  Payout,
  Program,
  ReportStatus,
  Submission,
} from '../api-types';

export interface AccountRecord {
  uid: string;
  email: string | null;
  email_verified: boolean;
  payments_status: PaymentsAccountStatus;
  payments_checked_at: string | null;
  /** Keys created before this moment no longer work (password change). */
  password_changed_ms: number;
  disabled: boolean;
  /** Hash of the website-session token (the token itself is recomputed for the world route). */
  session_hash: string;
  onboarding_started_ms: number | null;
  /** Hash of the single-use onboarding link's token, while one is open. */
  onboarding_token_hash: string | null;
}

export interface KeyRecord {
  id: string;
  uid: string;
  name: string;
  scope: KeyScope;
  hash: string;
  hint: string;
  created_ms: number;
  last_used_ms: number | null;
  expires_ms: number | null;
  /** Made by the seed or a control route: its secret is recomputable and shown by the world route. */
  fixture: boolean;
  /** Creation order, to list newest first even within one millisecond. */
  seq: number;
}

/** A program's policy, as the API document defines it (`Program`). */
export type PolicyFields = Pick<
  Program,
  'description' | 'scope' | 'exclusions' | 'rules' | 'eligibility' | 'disclosure' | 'rewards'
>;

export interface ProgramRecord extends PolicyFields {
  id: string;
  name: string;
  customer_name: string;
  intake: Intake;
  demo: boolean;
  summary: string;
  asset_types: string[];
  policy_version: number;
  updated_ms: number;
  private: boolean;
  pool_paused: boolean;
  published: boolean;
  invited: string[];
}

export interface ReportRecord {
  id: string;
  uid: string;
  program_id: string;
  program_name: string;
  status: ReportStatus;
  title: string;
  revision: number;
  created_at: string;
  updated_at: string;
  updated_ms: number;
  submitted_at: string | null;
  withdrawn_at: string | null;
  asset: string;
  description: string;
  cvss_vector: string;
  attachments: Record<string, Attachment>;
  submission: Submission | null;
  decision: Decision | null;
  payout: Payout | null;
  messages: Message[];
  /** The last draft save (revision before and after), so an identical repeat is answered safely. */
  last_save: { from: number; to: number } | null;
  /** The revision the submit was sent with, so a repeated submit is answered safely. */
  submit_revision: number | null;
  /** How many times the automatic agent asked for more information. */
  agent_asks: number;
}
