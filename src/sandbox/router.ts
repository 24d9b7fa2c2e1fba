/**
 * A small router: routes are templates like `/api/reports/{report_id}`; matching splits the path
 * into segments. A known path with another method gives the allowed methods (for 405).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Principal } from './auth';
import type { SandboxEnv } from './env';

export type AuthMode = 'public' | 'user' | 'session';

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  env: SandboxEnv;
  params: Record<string, string>;
  query: URLSearchParams;
  principal: Principal | undefined;
  ip: string;
  /** The sandbox's own base URL (for links it hands out). */
  baseUrl: string;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Raw bytes instead of JSON (file download). */
  bytes?: Buffer;
}

export interface Route<C = RequestContext> {
  method: string;
  template: string;
  auth: AuthMode;
  /** Counted in the per-IP program-route limit. */
  programs?: boolean;
  handle(ctx: C): Promise<Reply> | Reply;
}

interface CompiledRoute<C> {
  route: Route<C>;
  segments: string[];
}

export type Match<C> =
  | { kind: 'route'; route: Route<C>; params: Record<string, string> }
  | { kind: 'method'; allowed: string[] }
  | { kind: 'none' };

export class Router<C = RequestContext> {
  private readonly routes: CompiledRoute<C>[] = [];

  add(...routes: Route<C>[]): this {
    for (const route of routes) {
      this.routes.push({ route, segments: route.template.split('/') });
    }
    return this;
  }

  private static params(template: string[], path: string[]): Record<string, string> | null {
    if (template.length !== path.length) return null;
    const params: Record<string, string> = {};
    for (let i = 0; i < template.length; i++) {
      const t = template[i] as string;
      const p = path[i] as string;
      if (t.startsWith('{')) {
        if (p === '') return null;
        try {
          params[t.slice(1, -1)] = decodeURIComponent(p);
        } catch {
          return null;
        }
      } else if (t !== p) return null;
    }
    return params;
  }

  match(method: string, pathname: string): Match<C> {
    const path = pathname.split('/');
    const allowed: string[] = [];
    const wanted = method === 'HEAD' ? 'GET' : method;
    for (const { route, segments } of this.routes) {
      const params = Router.params(segments, path);
      if (!params) continue;
      if (route.method === wanted) return { kind: 'route', route, params };
      allowed.push(route.method);
    }
    return allowed.length ? { kind: 'method', allowed } : { kind: 'none' };
  }
}
