/** The triage thread: `GET` and `POST /api/reports/{report_id}/messages`. */
import { validationError } from '../errors';
import type { Route } from '../router';
import { postResearcherMessage } from '../state/reports';
import { toReport } from '../state/serialize';
import { accountOf, ownReport, reportIdOf, withBody } from './reports';

export const messageRoutes: Route[] = [
  {
    method: 'GET',
    template: '/api/reports/{report_id}/messages',
    auth: 'user',
    handle(ctx) {
      return { status: 200, body: { messages: ownReport(ctx).messages } };
    },
  },
  {
    method: 'POST',
    template: '/api/reports/{report_id}/messages',
    auth: 'user',
    handle: withBody('MessageInput', (ctx, input) => {
      const id = reportIdOf(ctx);
      const body = input.body ?? '';
      const files = input.files ?? [];
      if (body.trim() === '' && files.length === 0) {
        throw validationError('body: a message needs text or at least one file');
      }
      const { report, startedTurn } = postResearcherMessage(
        ctx.env.world,
        accountOf(ctx),
        id,
        body,
        files,
      );
      if (startedTurn) ctx.env.agent.turnQueued(id);
      return { status: 200, body: toReport(report) };
    }),
  },
];
