/** What the scope guard reads from a program's scope and what it answers about an asset. */
export type ScopeTarget =
  | { type: 'host'; host: string }
  | { type: 'wildcard'; domain: string }
  /** A `*` elsewhere in a name (`api-*.x.com`, `*x.com`, `*.x.*`), as written (ASCII form). */
  | { type: 'pattern'; pattern: string }
  | { type: 'url'; host: string; path: string }
  | { type: 'ip'; address: string }
  | { type: 'cidr'; address: string; prefix: number }
  /** An IPv4 range written first to last (`195.94.213.80 - 195.94.213.95`, `31.31.140.0-87`). */
  | { type: 'range'; first: string; last: string }
  | { type: 'app'; id: string }
  /** A cloud storage bucket, however it is written: `s3://b`, `b.s3.amazonaws.com`, `s3.amazonaws.com/b`. */
  | { type: 'bucket'; name: string };

export interface ScopeLine {
  /** The line as a person reads it (list marker and Markdown punctuation removed). */
  text: string;
  targets: ScopeTarget[];
}

export interface ScopeRules {
  scope: ScopeLine[];
  exclusions: ScopeLine[];
  /**
   * Scope lines that name no target yet may cover one (`Any asset owned by Acme`, `Other
   * subsidiaries`): an asset no target covers is then not plainly out of scope.
   */
  unclear?: ScopeLine[];
}

export type ScopeMatch =
  | { status: 'in-scope'; line: string; target: ScopeTarget }
  | { status: 'excluded'; line: string; target: ScopeTarget }
  /** The asset names a target, and no scope line covers it. */
  | { status: 'out-of-scope' }
  /**
   * The policy does not settle it: the line that matches qualifies itself (`except…`, `only…`),
   * a narrower scope line sits inside a wider exclusion, or a line that names no target may cover
   * the asset. The researcher reads the policy; the hint says which line to read.
   */
  | { status: 'unsure'; line: string; reason: string }
  /** Nothing to compare: the asset names no host, URL, IP or app, or the scope lists none. */
  | { status: 'unknown' };
