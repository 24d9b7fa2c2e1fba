import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Command, Ctx } from '../command';
import { JSON_OPTION, str, strs } from '../command';
import { EXIT, type ExitCode } from '../exit-codes';
import { readStdin, readTextArg } from '../inputs';
import { deliveryExit, waitForDelivery } from '../outbox-wait';
import { print, printJson, RefusedError, safeText, say, UsageError } from '../terminal';
import type { attachEvidence } from '../evidence';
import type { parseReportFile } from '@engine/report-files/front-matter';
import type { ImportReportsResult } from '@shared/bridge/report-file-views';
import type { ChecklistItemView } from '@shared/bridge/views';

const WAIT = { wait: { type: 'string' } } as const;
const WAIT_DETAIL =
  '--wait <s>       how long to wait for the service to confirm (default 60; 0: do not wait)';

function waitMs(values: Record<string, unknown>): number {
  const raw = values['wait'];
  if (raw === undefined) return 60_000;
  const n = Number(raw);
  if (typeof raw !== 'string' || !Number.isFinite(n) || n < 0) {
    throw new UsageError('--wait must be a number of seconds.');
  }
  return n * 1000;
}

// The evidence detection and the YAML reader load when a command uses them, not at every start.
async function attach(
  ...args: Parameters<typeof attachEvidence>
): ReturnType<typeof attachEvidence> {
  return (await import('../evidence')).attachEvidence(...args);
}

async function parseFile(text: string): Promise<ReturnType<typeof parseReportFile>> {
  return (await import('@engine/report-files/front-matter')).parseReportFile(text);
}

function problemsOf(result: ImportReportsResult): string[] {
  return result.problems.map(
    (p) => `${p.file}${p.line ? `:${p.line}` : ''}: ${p.field}: ${safeText(p.message)}`,
  );
}

const create: Command = {
  path: ['draft', 'create'],
  summary: 'A new draft from a Markdown file with front matter (or standard input)',
  args: '--file <report.md|-> [--attach <file>]... [--json]',
  example: 'bountydesk draft create --file finding.md --attach shot.png --attach login.har',
  options: { ...JSON_OPTION, file: { type: 'string' }, attach: { type: 'string', multiple: true } },
  positionals: { min: 0, max: 0 },
  json: true,
  details: [
    '--file <f|->     the report: front matter (program, title, asset, cvss_vector), then the',
    '                 description; the format the app exports and imports. "-" reads stdin.',
    '--attach <file>  evidence (repeat): images lose their metadata, text is scanned for',
    '                 credentials; a HAR, Burp export or curl command becomes a code block.',
    "Prints the new draft's id. Local until submitted; nothing is sent to triage.",
  ],
  async run(ctx, values) {
    const file = str(values, 'file');
    if (!file) throw new UsageError('--file is required (a path, or - for standard input).');
    const link = await ctx.link();
    let result: ImportReportsResult;
    if (file === '-') {
      const folder = await mkdtemp(join(tmpdir(), 'bountydesk-stdin-'));
      try {
        await writeFile(join(folder, 'stdin.md'), await readStdin(ctx.io), { mode: 0o600 });
        result = await link.calls.importReports([join(folder, 'stdin.md')]);
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    } else {
      result = await link.calls.importReports([resolve(ctx.io.cwd, file)]);
    }
    if (result.problems.length) {
      for (const line of problemsOf(result)) say(ctx.io, line);
      throw new RefusedError('The file was not imported: nothing was made.');
    }
    const made = result.created[0];
    if (!made) throw new Error('The file made no draft.');
    const attached = await attach(link, ctx.io, made.reportId, strs(values, 'attach'));
    if (ctx.json) printJson(ctx.io, { reportId: made.reportId, title: made.title, attached });
    else {
      print(ctx.io, made.reportId);
      say(
        ctx.io,
        `Draft "${safeText(made.title)}" made${attached.length ? ` with ${attached.length} attachment(s)` : ''}.`,
      );
    }
    return EXIT.ok;
  },
};

const edit: Command = {
  path: ['draft', 'edit'],
  summary: "Change a draft's fields (flags), or replace them all from a file",
  args: '<id> [--title <t>] [--asset <a>] [--cvss <vector>] [--file <report.md|->] [--attach <file>]...',
  example: 'bountydesk draft edit ID --title "Stored XSS in the profile name" --attach poc.html',
  options: {
    file: { type: 'string' },
    title: { type: 'string' },
    asset: { type: 'string' },
    cvss: { type: 'string' },
    attach: { type: 'string', multiple: true },
  },
  positionals: { min: 1, max: 1 },
  details: [
    '--title, --asset, --cvss   change only these fields: an edit made in the app at the same',
    '                 time to another field is kept (merged as the window merges)',
    '--file <f|->     every field from a file in the draft create format (its program must be the',
    "                 draft's): the file's values win over edits made since it was written",
    '--attach <file>  more evidence, as with draft create',
  ],
  async run(ctx, values, [id = '']) {
    const file = str(values, 'file');
    const fields = {
      title: str(values, 'title'),
      asset: str(values, 'asset'),
      cvss_vector: str(values, 'cvss'),
    };
    const flagged = Object.values(fields).some((v) => v !== undefined);
    if (!file && !flagged && strs(values, 'attach').length === 0) {
      throw new UsageError('Nothing to change: give --title, --asset, --cvss, --file or --attach.');
    }
    if (file && flagged) throw new UsageError('Use either --file or the field flags, not both.');
    const parsed = file ? await parseFile(await readTextArg(ctx.io, file)) : null;
    if (parsed && !parsed.ok) {
      for (const p of parsed.problems) {
        say(ctx.io, `${file}:${p.line}: ${p.field}: ${safeText(p.message)}`);
      }
      throw new RefusedError('The file was not read: the draft is unchanged.');
    }
    const link = await ctx.link();
    const draft = (await link.calls.getReport(id))?.draft;
    if (!draft) throw new Error(`${id} is not a draft here.`);
    if (parsed?.ok && parsed.meta.program !== draft.programId) {
      throw new RefusedError(
        `program: the draft belongs to ${draft.programId}; a program cannot change.`,
      );
    }
    const content = parsed?.ok
      ? {
          title: parsed.meta.title,
          asset: parsed.meta.asset,
          cvss_vector: parsed.meta.cvss_vector,
          description: parsed.description,
        }
      : {
          ...draft.content,
          ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
        };
    if (file || flagged) {
      // Based on the content this command read: the engine merges an edit the window saved since.
      const saved = await link.calls.saveDraft(id, content, draft.content);
      for (const issue of saved.issues) say(ctx.io, `${issue.field}: ${safeText(issue.message)}`);
      if (saved.conflicts.length) {
        const names = saved.conflicts.map((c) => c.field).join(', ');
        say(ctx.io, `Conflicts in ${names}: resolve them in the app.`);
      }
    }
    await attach(link, ctx.io, id, strs(values, 'attach'));
    say(ctx.io, 'Draft saved.');
    return EXIT.ok;
  },
};

/** Findings by kind and place; never the value, not even its first characters. */
function findingLines(
  findings: { kind: string; label: string; where: string; occurrences: number }[],
) {
  return findings.map(
    (f) => `  ${f.where}: ${f.label} [${f.kind}]${f.occurrences > 1 ? ` ×${f.occurrences}` : ''}`,
  );
}

const submit: Command = {
  path: ['report', 'submit'],
  summary: 'Submit a draft: the checklist and the credential scan first, as in the window',
  args: '<id> [--redact] [--wait <s>] [--json]',
  example: 'bountydesk report submit ID --redact',
  options: { ...JSON_OPTION, ...WAIT, redact: { type: 'boolean' } },
  positionals: { min: 1, max: 1 },
  json: true,
  details: [
    '--redact         replace every credential found with [REDACTED:<kind>] first',
    WAIT_DETAIL,
    'Refused (exit code 4) while the checklist fails or credentials are found; each is named by',
    'kind and place, never by value.',
  ],
  async run(ctx, values, [id = '']) {
    const link = await ctx.link();
    let scan = await link.calls.scanEvidence(id);
    const open = () => scan.findings.filter((f) => !f.kept);
    if (open().length && values['redact'] === true) {
      scan = await link.calls.redactFindings(
        id,
        open().map((f) => f.id),
      );
      say(ctx.io, 'Credentials replaced with [REDACTED:<kind>].');
    }
    const findings = open().map((f) => ({
      kind: f.kind,
      label: f.label,
      where: f.where,
      occurrences: f.occurrences,
    }));
    let failing: ChecklistItemView[] = [];
    const report = (outcome: string): void => {
      if (!ctx.json) return;
      printJson(ctx.io, {
        reportId: id,
        outcome,
        checklist: failing.map((i) => ({ id: i.id, label: i.label, detail: i.detail, fix: i.fix })),
        findings,
        notScanned: scan.notScanned.map((f) => f.name),
      });
    };
    const refused = (): ExitCode => {
      report('refused');
      for (const item of failing) {
        say(ctx.io, `✗ ${safeText(item.label)}: ${safeText(item.detail)} ${safeText(item.fix)}`);
      }
      if (findings.length) {
        say(
          ctx.io,
          `Credentials found (${findings.length}); submit again with --redact, or keep them in the app:`,
        );
        for (const line of findingLines(findings)) say(ctx.io, safeText(line));
      }
      return EXIT.refused;
    };
    // Open findings hold the draft's changes back (nothing holding them is sent): refuse now.
    if (findings.length) return refused();
    // Uploads and saves still on their way are waited for: "still uploading" is no refusal.
    const before = await waitForDelivery(link, id, ctx.io, waitMs(values));
    if (before.outcome !== 'sent') {
      report(before.outcome);
      return deliveryExit(ctx.io, link, "The draft's changes (not submitted yet)", before);
    }
    const checklist = await link.calls.getChecklist(id);
    failing = checklist.items.filter((i) => !i.ok);
    if (!checklist.ok) return refused();
    await link.calls.submit(id);
    const delivery = await waitForDelivery(link, id, ctx.io, waitMs(values));
    report(delivery.outcome);
    return deliveryExit(ctx.io, link, 'Submit', delivery);
  },
};

async function writeAndWait(
  ctx: Ctx,
  id: string,
  what: string,
  wait: number,
  write: () => Promise<unknown>,
): Promise<ExitCode> {
  const link = await ctx.link();
  await write();
  return deliveryExit(ctx.io, link, what, await waitForDelivery(link, id, ctx.io, wait));
}

const withdraw: Command = {
  path: ['report', 'withdraw'],
  summary: 'Withdraw a submitted report',
  args: '<id> [--wait <s>]',
  example: 'bountydesk report withdraw ID',
  options: WAIT,
  positionals: { min: 1, max: 1 },
  details: [WAIT_DETAIL],
  run: async (ctx, values, [id = '']) =>
    writeAndWait(ctx, id, 'Withdraw', waitMs(values), async () =>
      (await ctx.link()).calls.withdraw(id),
    ),
};

const reply: Command = {
  path: ['reply'],
  summary: "Answer in a report's thread, with files",
  args: '<id> (--body <text> | --body-file <f|->) [--attach <file>]... [--wait <s>]',
  example: 'bountydesk reply ID --body-file answer.md --attach poc.py',
  options: {
    ...WAIT,
    body: { type: 'string' },
    'body-file': { type: 'string' },
    attach: { type: 'string', multiple: true },
  },
  positionals: { min: 1, max: 1 },
  details: [
    '--body <text> or --body-file <f|->   the message (Markdown)',
    '--attach <file>  a file for the message (repeat); scanned for credentials before it goes',
    WAIT_DETAIL,
  ],
  async run(ctx, values, [id = '']) {
    const bodyFile = str(values, 'body-file');
    const inline = str(values, 'body');
    if ((bodyFile === undefined) === (inline === undefined)) {
      throw new UsageError('Give the message with exactly one of --body or --body-file.');
    }
    const body = inline ?? (await readTextArg(ctx.io, bodyFile ?? '-'));
    const filePaths = strs(values, 'attach').map((f) => resolve(ctx.io.cwd, f));
    return writeAndWait(ctx, id, 'Reply', waitMs(values), async () =>
      (await ctx.link()).calls.postMessage(id, { body, filePaths }),
    );
  },
};

const exportCmd: Command = {
  path: ['export'],
  summary: 'Reports as folders: report.md, thread.md and files/',
  args: '<id>... --dir <folder> [--json]',
  example: 'bountydesk export ID1 ID2 --dir ~/reports',
  options: { ...JSON_OPTION, dir: { type: 'string' } },
  positionals: { min: 1, max: 500 },
  json: true,
  details: ['--dir <folder>   where the report folders go (made when missing)'],
  async run(ctx, values, ids) {
    const dir = str(values, 'dir');
    if (!dir) throw new UsageError('--dir is required.');
    const result = await (await ctx.link()).calls.exportReports(ids, resolve(ctx.io.cwd, dir));
    if (ctx.json) printJson(ctx.io, result);
    else {
      for (const r of result.reports) print(ctx.io, r.folder);
      say(ctx.io, `${result.reports.length} report(s) exported to ${result.savedTo}.`);
    }
    return EXIT.ok;
  },
};

const importCmd: Command = {
  path: ['import'],
  summary: 'Report files or folders as new drafts (checked whole first)',
  args: '<file-or-folder>... [--json]',
  example: 'bountydesk import ~/reports/',
  options: JSON_OPTION,
  positionals: { min: 1, max: 500 },
  json: true,
  details: ['Nothing is imported while any file has a problem: each is named by file and line.'],
  async run(ctx, _values, paths) {
    const link = await ctx.link();
    const result = await link.calls.importReports(paths.map((p) => resolve(ctx.io.cwd, p)));
    if (ctx.json) printJson(ctx.io, result);
    if (result.problems.length) {
      for (const line of problemsOf(result)) say(ctx.io, line);
      return EXIT.refused;
    }
    if (!ctx.json) {
      for (const c of result.created) print(ctx.io, `${c.reportId}\t${safeText(c.title)}`);
      say(ctx.io, `${result.created.length} draft(s) made.`);
    }
    return EXIT.ok;
  },
};

export const DRAFT_COMMANDS = [create, edit, submit, withdraw, reply, exportCmd, importCmd];
