import { formatSize } from '@shared/rules/size';
import { formatCount } from '@shared/words/count';
/** Display helpers. Pure. */

// One formatter for every time shown: toLocaleString with options builds a new one per call,
// which made each row of a scrolled list cost a fraction of a millisecond.
const TIME = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return TIME.format(d);
}

const CLOCK = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const DAY = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const DAY_AND_YEAR = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
});

/**
 * A time in a list row, as short as it can be read: the clock today, the day this year, else the
 * day and year (the whole date and time cut off the row's status, program and score).
 */
export function formatShortTime(iso: string | null | undefined, now = new Date()): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  if (d.getFullYear() !== now.getFullYear()) return DAY_AND_YEAR.format(d);
  if (d.getMonth() === now.getMonth() && d.getDate() === now.getDate()) return CLOCK.format(d);
  return DAY.format(d);
}

export function formatUsd(dollars: number): string {
  return `$${Math.round(dollars).toLocaleString('en-US')}`;
}

export function formatCents(cents: number): string {
  return `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** One way to write sizes everywhere (lists, errors): see `formatSize`. */
export const formatBytes = formatSize;

export function humanize(value: string): string {
  const s = value.replace(/_/gu, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The one table of asset type labels: the program filters and the program rows both use it. */
export const ASSET_LABELS: Record<string, string> = {
  web: 'Web',
  api: 'API',
  mobile: 'Mobile',
  source_code: 'Source code',
  cloud: 'Cloud',
  hardware: 'Hardware',
  other: 'Other',
};

/** An asset type as the researcher reads it; a type this version does not know, humanized. */
export function assetTypeLabel(type: string): string {
  return Object.hasOwn(ASSET_LABELS, type) ? (ASSET_LABELS[type] ?? type) : humanize(type);
}

export const REWARD_LABELS: Record<string, string> = {
  under_1k: 'Under $1k',
  '1k_5k': '$1k–$5k',
  '5k_10k': '$5k–$10k',
  over_10k: 'Over $10k',
};

export const UPDATED_LABELS: Record<string, string> = {
  any: 'Any time',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
};

export const INTAKE_LABELS: Record<string, string> = {
  open: 'open',
  paused: 'paused',
  closed: 'closed',
};

export const STATUS_LABELS: Record<string, string> = {
  draft: 'Draft',
  triaging: 'Triaging',
  needs_info: 'Needs info',
  paused: 'Paused',
  human_review: 'Human review',
  accepted: 'Accepted',
  rejected: 'Rejected',
  duplicate: 'Duplicate',
  insufficient_info: 'Insufficient info',
  withdrawn: 'Withdrawn',
};

/**
 * A report's status in one label: the server's own label for display when it gives one, else the
 * app's. Shown once per report: beside it nothing says the status again.
 */
export function statusLabel(status: string, display?: string | null): string {
  const own = Object.hasOwn(STATUS_LABELS, status) ? STATUS_LABELS[status] : undefined;
  return display?.trim() || own || humanize(status);
}

/** "in 42 s" style countdown text. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${String(s % 60).padStart(2, '0')} s`;
}

/** "about 1 h 40 min", "about 12 min", "under a minute": an estimate, never to the second. */
export function formatEstimate(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 1) return 'under a minute';
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `about ${m} min`;
  return m === 0 ? `about ${h} h` : `about ${h} h ${m} min`;
}

/**
 * Where the first mirror is: "3,214 of 10,000 reports downloaded — about 1 h 40 min left at the
 * service's limit".
 */
export function formatMirror(mirror: { total: number; downloaded: number; secondsLeft: number }) {
  const n = formatCount;
  return `${n(mirror.downloaded)} of ${n(mirror.total)} reports downloaded — ${formatEstimate(mirror.secondsLeft)} left at the service's limit`;
}

/** "1 draft", "2 drafts": a count with its word (English plurals of the app's own nouns). */
export function plural(count: number, word: string): string {
  return `${formatCount(count)} ${word}${count === 1 ? '' : 's'}`;
}
