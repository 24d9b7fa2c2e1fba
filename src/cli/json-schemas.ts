/**
 * The shapes `--json` prints, one JSON Schema per command (draft 2020-12, checked by the CLI's
 * tests against real output). Additions are fine for scripts; removals and renames are breaking.
 */
type Schema = Record<string, unknown>;

const str = { type: 'string' } as const;
const nstr = { type: ['string', 'null'] } as const;
const int = { type: 'integer', minimum: 0 } as const;
const bool = { type: 'boolean' } as const;
const obj = (properties: Record<string, unknown>, extra: Schema = {}): Schema => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  ...extra,
});
const arr = (items: unknown): Schema => ({ type: 'array', items });

const account = {
  oneOf: [
    { type: 'null' },
    obj({
      serverUrl: str,
      sandbox: bool,
      scope: { enum: ['read', 'write'] },
      uid: nstr,
      email: nstr,
      emailVerified: { type: ['boolean', 'null'] },
      payments: nstr,
    }),
  ],
};

const status = obj({
  account,
  connectivity: { enum: ['online', 'offline', 'unknown'] },
  syncing: bool,
  lastSyncAt: nstr,
  queued: obj({ unsent: int, held: int }),
  needsAction: int,
  unread: int,
  limits: obj({ used: int, limit: int }),
  mirror: {
    oneOf: [
      { type: 'null' },
      obj({ total: int, downloaded: int, secondsLeft: { type: 'number' } }),
    ],
  },
  lastError: { oneOf: [{ type: 'null' }, obj({ code: str, title: str })] },
});

const reportRow = obj({
  id: str,
  status: str,
  title: str,
  programId: str,
  programName: str,
  updatedAt: nstr,
  severity: { type: ['number', 'null'] },
  unsent: bool,
  conflict: bool,
  needsAction: bool,
});
const reportList = obj({ total: int, indexing: int, reports: arr(reportRow) });

const attached = obj(
  { file: str, as: { enum: ['file', 'http'] } },
  {
    properties: {
      file: str,
      as: { enum: ['file', 'http'] },
      format: str,
      redacted: int,
      problem: str,
    },
  },
);

export const JSON_SCHEMAS: Record<string, Schema> = {
  'auth status': obj({ signedIn: bool, account }),
  status,
  sync: status,
  'report list': reportList,
  'report search': reportList,
  'report view': obj(
    {
      report_id: str,
      program: str,
      title: str,
      asset: str,
      cvss_vector: str,
      status: str,
      description: str,
      unsent: bool,
      evidence: arr(obj({ fileId: str, name: str, size: int, contentType: str, state: str })),
      queued: arr(obj({ kind: str, state: str })),
    },
    {
      properties: {
        report_id: str,
        program: str,
        program_name: str,
        title: str,
        asset: str,
        cvss_vector: str,
        cvss_score: { type: ['number', 'null'] },
        status: str,
        created_at: nstr,
        updated_at: nstr,
        submitted_at: nstr,
        description: str,
        unsent: bool,
        evidence: { type: 'array' },
        queued: { type: 'array' },
        messages: arr(obj({ id: str, author: str, at: nstr, body: str, files: arr(str) })),
      },
    },
  ),
  inbox: obj({
    items: arr(obj({ reportId: str, title: str, needsInfo: bool, unread: int, updatedAt: nstr })),
  }),
  payouts: obj({
    payouts: arr(
      obj({
        reportId: str,
        title: str,
        programName: str,
        status: str,
        amountCents: int,
        month: nstr,
      }),
    ),
    total: obj({ count: int, amountCents: int }),
    byStatus: arr(obj({ status: str, count: int, amountCents: int })),
  }),
  'draft create': obj({ reportId: str, title: str, attached: arr(attached) }),
  'report submit': obj({
    reportId: str,
    outcome: { enum: ['sent', 'queued', 'refused'] },
    checklist: arr(obj({ id: str, label: str, detail: str, fix: str })),
    findings: arr(obj({ kind: str, label: str, where: str, occurrences: int })),
    notScanned: arr(str),
  }),
  export: obj({
    savedTo: str,
    reports: arr({ type: 'object', required: ['reportId', 'folder'] }),
  }),
  import: obj({
    created: arr(obj({ reportId: str, title: str, file: str })),
    problems: arr(obj({ file: str, line: int, field: str, message: str })),
  }),
};
