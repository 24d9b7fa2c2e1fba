/** Report routes of part 4: list, read, create/save, submit, withdraw. */
import { notFound, validationError } from '../errors';
import { readJson } from '../http-io';
import type { Reply, RequestContext, Route } from '../router';
import type { components, SchemaName } from '@shared/api';
import { saveReport, submitReport, withdrawReport } from '../state/reports';
import { toReport, toSummary } from '../state/serialize';
import type { ReportRecord } from '../state/types';
import { parseBody } from '../validation';
import { isValidCvss31Vector } from '@shared/rules';
import { dateTimeParam, intParam, uuidParam } from './query';

/** The caller's account (routes with auth 'user' or 'session' always have one). */
export function accountOf(ctx: RequestContext) {
  if (!ctx.principal) throw new Error('route needs a principal');
  return ctx.principal.account;
}

export const reportIdOf = (ctx: RequestContext): string =>
  uuidParam(ctx.params.report_id ?? '', 'report_id');

/** The caller's report named by the path, or 404 (another researcher's report is not found). */
export function ownReport(ctx: RequestContext): ReportRecord {
  const report = ctx.env.world.reportOf(accountOf(ctx).uid, reportIdOf(ctx));
  if (!report) throw notFound('Report not found.');
  return report;
}

export const jsonBody = (ctx: RequestContext): Promise<unknown> =>
  readJson(ctx.req, ctx.env.options.jsonBodyTimeoutMs);

/**
 * A handler of a JSON body that the contract's schema `name` describes: the body is read and
 * checked first (`422 validation_error` naming the field), and `handle` gets it typed by the schema.
 */
export function withBody<N extends SchemaName>(
  name: N,
  handle: (ctx: RequestContext, input: components['schemas'][N]) => Reply,
): Route['handle'] {
  return async (ctx) => handle(ctx, parseBody(name, await jsonBody(ctx)));
}

export const reportRoutes: Route[] = [
  {
    method: 'GET',
    template: '/api/reports',
    auth: 'user',
    handle(ctx) {
      const { query, env } = ctx;
      const account = accountOf(ctx);
      const limit = intParam(query, 'limit', 1, 100, 50);
      const index = env.world.indexOf(account.uid);
      let start = 0;
      const cursor = query.get('cursor');
      if (cursor !== null) {
        uuidParam(cursor, 'cursor');
        const at = env.world.reportOf(account.uid, cursor);
        const position = at ? index.positionOf(at) : -1;
        if (position < 0) throw validationError('cursor: the report no longer exists');
        start = position + 1;
      }
      const since = query.get('updated_since');
      const end =
        since === null
          ? index.size
          : index.countUpdatedAfter(dateTimeParam(since, 'updated_since'));
      const stop = Math.min(start + limit, end);
      const page = start < stop ? index.slice(start, stop) : [];
      const last = page[page.length - 1];
      return {
        status: 200,
        body: {
          reports: page.map(toSummary),
          next_cursor: stop < end && last ? last.id : null,
        },
      };
    },
  },
  {
    method: 'GET',
    template: '/api/reports/{report_id}',
    auth: 'user',
    handle(ctx) {
      return { status: 200, body: toReport(ownReport(ctx)) };
    },
  },
  {
    method: 'PUT',
    template: '/api/reports/{report_id}',
    auth: 'user',
    handle: withBody('ReportInput', (ctx, input) => {
      const id = reportIdOf(ctx);
      if (input.cvss_vector && !isValidCvss31Vector(input.cvss_vector)) {
        throw validationError('cvss_vector: must be a valid CVSS 3.1 base vector');
      }
      const report = saveReport(ctx.env.world, accountOf(ctx), id, input);
      return { status: 200, body: toReport(report) };
    }),
  },
  {
    method: 'POST',
    template: '/api/reports/{report_id}/submit',
    auth: 'user',
    handle: withBody('SubmitInput', (ctx, input) => {
      const id = reportIdOf(ctx);
      const before = ctx.env.world.reportOf(accountOf(ctx).uid, id)?.status;
      const report = submitReport(ctx.env.world, accountOf(ctx), id, input.revision);
      if (before === 'draft' && report.status === 'triaging') ctx.env.agent.turnQueued(id);
      return { status: 200, body: toReport(report) };
    }),
  },
  {
    method: 'POST',
    template: '/api/reports/{report_id}/withdraw',
    auth: 'user',
    handle(ctx) {
      const id = reportIdOf(ctx);
      const report = withdrawReport(ctx.env.world, accountOf(ctx), id);
      ctx.env.agent.cancel(id);
      return { status: 200, body: toReport(report) };
    },
  },
];
