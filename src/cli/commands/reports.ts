import type { Command, Values } from '../command';
import { JSON_OPTION, str, strs } from '../command';
import { EXIT } from '../exit-codes';
import { print, printJson, safeText, say, UsageError } from '../terminal';
import { REPORT_STATUSES, type ReportStatus } from '@shared/api';
import { REPORT_SORTS, type ReportQuery, type ReportSort } from '@shared/bridge/views';

const LIST_OPTIONS = {
  ...JSON_OPTION,
  status: { type: 'string', multiple: true },
  program: { type: 'string' },
  sort: { type: 'string' },
  limit: { type: 'string' },
  offset: { type: 'string' },
} as const;

const LIST_DETAILS = [
  `--status <s>     only these statuses (repeat, or comma-separated): ${REPORT_STATUSES.join(', ')}`,
  "--program <id>   only this program's reports",
  `--sort <order>   ${REPORT_SORTS.join(', ')} (default updated, newest first)`,
  '--limit <n>      rows (default 50, at most 200); --offset <n> skips rows',
];

function intOption(values: Values, name: string, fallback: number, max: number): number {
  const raw = str(values, name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > max) {
    throw new UsageError(`--${name} must be a whole number from 0 to ${max}.`);
  }
  return n;
}

/** The app's list filters from the command line (the same query the reports screen sends). */
function queryOf(values: Values, search?: string): ReportQuery {
  const status = strs(values, 'status')
    .flatMap((s) => s.split(','))
    .map((s) => s.trim());
  for (const s of status) {
    if (!(REPORT_STATUSES as readonly string[]).includes(s)) {
      throw new UsageError(`--status: unknown status "${s}" (${REPORT_STATUSES.join(', ')}).`);
    }
  }
  const sort = str(values, 'sort');
  if (sort !== undefined && !(REPORT_SORTS as readonly string[]).includes(sort)) {
    throw new UsageError(`--sort: one of ${REPORT_SORTS.join(', ')}.`);
  }
  const program = str(values, 'program');
  return {
    ...(status.length ? { status: status as ReportStatus[] } : {}),
    ...(program ? { program } : {}),
    ...(search ? { search } : {}),
    ...(sort ? { sort: sort as ReportSort } : {}),
    offset: intOption(values, 'offset', 0, 1_000_000),
    limit: Math.max(1, intOption(values, 'limit', 50, 200)),
  };
}

async function listRun(ctx: Parameters<Command['run']>[0], values: Values, search?: string) {
  const page = await (await ctx.link()).calls.listReports(queryOf(values, search));
  const rows = page.items.map((item) => ({
    id: item.id,
    status: item.status,
    title: item.title,
    programId: item.programId,
    programName: item.programName,
    updatedAt: item.updatedAt,
    severity: item.severity ?? null,
    unsent: item.unsent,
    conflict: item.conflict,
    needsAction: item.needsAction,
  }));
  if (ctx.json) {
    printJson(ctx.io, { total: page.total, indexing: page.indexing, reports: rows });
    return EXIT.ok;
  }
  const lines = rows.map((r) => {
    const flags = [
      r.unsent ? 'unsent' : '',
      r.conflict ? 'conflict' : '',
      r.needsAction ? 'action' : '',
    ]
      .filter(Boolean)
      .join(',');
    return [
      r.id,
      r.status.padEnd(17),
      safeText(r.title) || '(untitled)',
      safeText(r.programName),
      flags,
    ]
      .filter(Boolean)
      .join('\t');
  });
  if (lines.length) print(ctx.io, lines.join('\n'));
  say(ctx.io, `${rows.length} of ${page.total} report(s).`);
  return EXIT.ok;
}

const list: Command = {
  path: ['report', 'list'],
  summary: "List reports with the app's filters",
  args: '[--status <s>] [--program <id>] [--sort <order>] [--limit <n>] [--json]',
  example: 'bountydesk report list --status needs_info,triaging --json',
  options: LIST_OPTIONS,
  positionals: { min: 0, max: 0 },
  json: true,
  details: LIST_DETAILS,
  run: (ctx, values) => listRun(ctx, values),
};

const search: Command = {
  path: ['report', 'search'],
  summary: 'Search reports (title, asset, description, thread) with the same filters',
  args: '<words> [--status <s>] [--program <id>] [--json]',
  example: 'bountydesk report search "open redirect" --status draft',
  options: LIST_OPTIONS,
  positionals: { min: 1, max: 100 },
  json: true,
  details: ['Words match from three characters on, as in the app.', ...LIST_DETAILS],
  run: (ctx, values, words) => listRun(ctx, values, words.join(' ')),
};

const view: Command = {
  path: ['report', 'view'],
  summary: "A report as Markdown with front matter (the export's format), or its thread",
  args: '<id> [--thread] [--json]',
  example: 'bountydesk report view 3f0c… --thread',
  options: { ...JSON_OPTION, thread: { type: 'boolean' } },
  positionals: { min: 1, max: 1 },
  json: true,
  details: ['--thread   the messages too, after the report'],
  async run(ctx, values, [id = '']) {
    const detail = await (await ctx.link()).calls.getReport(id);
    if (!detail) {
      say(ctx.io, `No report ${safeText(id)}.`);
      return EXIT.failed;
    }
    // Loaded here, not at start: YAML and the CVSS calculator would slow every other command.
    const [{ formatReportFile }, { frontMatterOf, threadMarkdown }] = await Promise.all([
      import('@engine/report-files/front-matter'),
      import('@engine/report-files/report-folder'),
    ]);
    const meta = frontMatterOf(detail, undefined);
    const description = detail.draft?.content.description ?? detail.report?.description ?? '';
    if (ctx.json) {
      printJson(ctx.io, {
        ...meta,
        description,
        unsent: detail.draft?.unsent ?? false,
        evidence: detail.evidence.map((f) => ({
          fileId: f.fileId,
          name: f.name,
          size: f.size,
          contentType: f.contentType,
          state: f.state,
        })),
        queued: detail.outbox
          .filter((e) => e.state !== 'done')
          .map((e) => ({ kind: e.kind, state: e.state })),
        ...(values['thread']
          ? {
              messages: detail.messages.map((m) => ({
                id: m.id,
                author: m.author,
                at: m.at,
                body: m.body,
                files: m.attachments.map((f) => f.name),
              })),
            }
          : {}),
      });
      return EXIT.ok;
    }
    let text = formatReportFile(meta, description);
    if (values['thread']) text += `\n\n${threadMarkdown(meta, detail.messages, () => null)}`;
    print(ctx.io, safeText(text));
    return EXIT.ok;
  },
};

const inbox: Command = {
  path: ['inbox'],
  summary: 'Questions waiting for you (needs_info), and unread messages with --all',
  args: '[--all] [--json]',
  example: 'bountydesk inbox --json',
  options: { ...JSON_OPTION, all: { type: 'boolean' } },
  positionals: { min: 0, max: 0 },
  json: true,
  details: ['--all   reports with unread messages too, not only open questions'],
  async run(ctx, values) {
    const status = await (await ctx.link()).calls.getStatus();
    const items = status.inbox
      .filter((item) => values['all'] === true || item.needsInfo)
      .map((item) => ({
        reportId: item.reportId,
        title: item.title,
        needsInfo: item.needsInfo,
        unread: item.unread,
        updatedAt: item.updatedAt,
      }));
    if (ctx.json) printJson(ctx.io, { items });
    else {
      const lines = items.map(
        (i) =>
          `${i.reportId}\t${i.needsInfo ? 'question' : `${i.unread} unread`}\t${safeText(i.title)}`,
      );
      if (lines.length) print(ctx.io, lines.join('\n'));
      say(
        ctx.io,
        items.length
          ? `${items.length} waiting. Answer with: bountydesk reply <id> --body …`
          : 'Nothing waits for you.',
      );
    }
    return EXIT.ok;
  },
};

const payouts: Command = {
  path: ['payouts'],
  summary: "Rewards: each payout's state, totals by status",
  args: '[--json]',
  example: 'bountydesk payouts --json',
  options: JSON_OPTION,
  positionals: { min: 0, max: 0 },
  json: true,
  details: ['Amounts in cents in --json; as money otherwise.'],
  async run(ctx) {
    const view = await (await ctx.link()).calls.listPayouts();
    const rows = view.rows.map((r) => ({
      reportId: r.reportId,
      title: r.title,
      programName: r.programName,
      status: r.status,
      amountCents: r.amountCents,
      month: r.month,
    }));
    if (ctx.json) {
      printJson(ctx.io, {
        payouts: rows,
        total: view.total,
        byStatus: view.byStatus.map((t) => ({
          status: t.key,
          count: t.count,
          amountCents: t.amountCents,
        })),
      });
      return EXIT.ok;
    }
    const money = (cents: number): string => (cents / 100).toFixed(2);
    const lines = rows.map(
      (r) => `${r.reportId}\t${r.status}\t${money(r.amountCents)}\t${safeText(r.title)}`,
    );
    if (lines.length) print(ctx.io, lines.join('\n'));
    say(ctx.io, `${view.total.count} payout(s), ${money(view.total.amountCents)} in all.`);
    return EXIT.ok;
  },
};

export const REPORT_COMMANDS = [list, search, view, inbox, payouts];
