/**
 * The HTTP pipeline on plain `node:http`. For researcher-API requests: request id, agent check,
 * fault injection, statistics, routing (404/405), authentication and rate limits, read-only and
 * session checks, the handler, and the error body of part 7. Control routes skip faults, stats,
 * auth and limits.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { authenticate } from './auth';
import type { Principal } from './auth';
import type { SandboxEnv } from './env';
import { ApiError, ClientGone } from './errors';
import { faultCode } from './faults';
import { sendJson } from './http-io';
import type { Reply, RequestContext, Route, Router } from './router';

const unauthenticated = (): ApiError =>
  new ApiError(401, 'unauthenticated', 'A valid bearer token is required.');

export interface Routers {
  api: Router;
  control: Router;
}

export function createSandboxServer(
  env: SandboxEnv,
  routers: Routers,
  baseUrl: () => string,
): Server {
  let counter = 0;
  const server = createServer((req, res) => {
    counter += 1;
    res.setHeader('X-Request-ID', `sbx-${Date.now().toString(36)}-${counter.toString(36)}`);
    env.agent.runDue();
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    const pathname = q < 0 ? raw : raw.slice(0, q);
    const query = new URLSearchParams(q < 0 ? '' : raw.slice(q + 1));
    const base = {
      req,
      res,
      env,
      query,
      ip: req.socket.remoteAddress ?? 'unknown',
      baseUrl: baseUrl(),
    };
    const work = pathname.startsWith('/__sandbox/')
      ? handleControl(routers.control, pathname, base)
      : handleApi(routers.api, pathname, base);
    work.catch((error: unknown) => respondError(req, res, error)).finally(() => env.changed());
  });
  // Part 8 body timeouts are enforced per route; Node's own request timeout would answer first.
  server.requestTimeout = 0;
  return server;
}

type Base = Omit<RequestContext, 'params' | 'principal'>;

async function handleControl(router: Router, pathname: string, base: Base): Promise<void> {
  const match = router.match(base.req.method ?? 'GET', pathname);
  if (match.kind === 'none') throw new ApiError(404, 'not_found', 'No such control route.');
  if (match.kind === 'method') throw methodNotAllowed(match.allowed);
  const reply = await match.route.handle({ ...base, params: match.params, principal: undefined });
  send(base.res, reply);
}

const methodNotAllowed = (allowed: string[]): ApiError =>
  new ApiError(405, 'invalid_state', `Method not allowed here; use ${allowed.join(', ')}.`, {});

async function handleApi(router: Router, pathname: string, base: Base): Promise<void> {
  const { req, res, env } = base;
  const method = req.method ?? 'GET';
  const match = router.match(method, pathname);
  const template = match.kind === 'route' ? match.route.template : '(unmatched)';
  recordStats(env, req, res, `${method} ${template}`);

  const fault = env.faults.decide();
  if (fault?.kind === 'status') {
    const retry: Record<string, string> =
      fault.status === 429 || fault.status === 503 ? { 'Retry-After': '1' } : {};
    drain(req);
    sendJson(
      res,
      fault.status,
      { detail: 'Injected fault (sandbox).', code: faultCode(fault.status) },
      retry,
    );
    return;
  }
  if (fault?.kind === 'latency') await sleep(fault.ms);
  if (fault?.kind === 'drop' && !fault.afterHandling) {
    req.socket.destroy();
    return;
  }

  if (match.kind === 'none') throw new ApiError(404, 'not_found', 'No such route.');
  if (match.kind === 'method') {
    res.setHeader('Allow', match.allowed.join(', '));
    throw methodNotAllowed(match.allowed);
  }
  const route = match.route;
  let reply: Awaited<ReturnType<typeof route.handle>>;
  try {
    const principal = authorize(env, route, base);
    reply = await route.handle({ ...base, params: match.params, principal });
  } catch (error) {
    // An injected drop loses the error answer too (the fault rate is the share of lost answers).
    if (fault?.kind === 'drop') {
      req.socket.destroy();
      return;
    }
    throw error;
  }
  if (fault?.kind === 'drop') {
    // The change happened, the answer is lost: what a client must survive for safe repeats.
    req.socket.destroy();
    return;
  }
  send(res, reply);
}

/** Authentication, rate limits, read-only keys and session-only routes, in that order. */
function authorize(env: SandboxEnv, route: Route, base: Base): Principal | undefined {
  const { req, ip } = base;
  const header = req.headers.authorization;
  let principal: Principal | undefined;
  if (header !== undefined) {
    principal = authenticate(env.world, header) ?? undefined;
    if (!principal) {
      env.limiter.hit('failedAuth', ip);
      throw unauthenticated();
    }
  } else if (route.auth !== 'public') {
    env.limiter.hit('failedAuth', ip);
    throw unauthenticated();
  }
  if (principal) env.limiter.hit('account', principal.account.uid);
  if (route.programs) env.limiter.hit('programs', ip);
  const method = req.method ?? 'GET';
  if (principal?.key?.scope === 'read' && method !== 'GET' && method !== 'HEAD') {
    throw new ApiError(403, 'read_only_key', 'A read key may only use GET and HEAD.');
  }
  if (route.auth === 'session' && principal?.via !== 'session') {
    throw new ApiError(403, 'session_required', 'This route needs a website sign-in.');
  }
  return principal;
}

function recordStats(
  env: SandboxEnv,
  req: IncomingMessage,
  res: ServerResponse,
  route: string,
): void {
  let done = false;
  res.on('finish', () => {
    done = true;
    env.stats.record(route, res.statusCode);
  });
  res.on('close', () => {
    if (!done) env.stats.record(route, 0);
  });
  void req;
}

function send(res: ServerResponse, reply: Reply): void {
  if (reply.bytes) {
    res.writeHead(reply.status, { 'Content-Length': reply.bytes.length, ...reply.headers });
    res.end(reply.bytes);
  } else {
    sendJson(res, reply.status, reply.body ?? {}, reply.headers);
  }
}

/** Discards an unread body so the connection can carry the next request. */
function drain(req: IncomingMessage): void {
  if (!req.complete) {
    req.removeAllListeners('data');
    req.resume();
  }
}

function respondError(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  if (error instanceof ClientGone || res.headersSent || res.destroyed) {
    if (!res.headersSent) req.socket.destroy();
    return;
  }
  const apiError =
    error instanceof ApiError
      ? error
      : new ApiError(500, 'internal_error', 'Unexpected error; quote the X-Request-ID to support.');
  if (!(error instanceof ApiError)) {
    console.error('sandbox: unexpected error', error instanceof Error ? error.stack : error);
  }
  const headers: Record<string, string> = {};
  if (apiError.extra.retryAfter !== undefined)
    headers['Retry-After'] = String(apiError.extra.retryAfter);
  if (apiError.status === 408) headers.Connection = 'close';
  drain(req);
  sendJson(res, apiError.status, apiError.toBody(), headers);
}
