import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from '@shared/api';
import { normalizeServerUrl } from '@shared/api/server-url';
import type { RequestStats } from './stats';

export type ApiClient = Client<paths>;

/** What one attempt of openapi-fetch gives back. */
export interface FetchOutcome<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

export interface ApiClientOptions {
  serverUrl: string;
  /** The account's API key, loaded by the caller from the SecretStore; null for public routes only. */
  apiKey: string | null;
  stats?: RequestStats;
  fetch?: (input: Request) => Promise<Response>;
}

/** The typed researcher API client of one account. The key is added here and nowhere else. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = normalizeServerUrl(options.serverUrl);
  const client = createClient<paths>({
    baseUrl,
    // A redirect is never expected: answer it as an error rather than carry the key elsewhere.
    redirect: 'manual',
    // `asset=web,api` as part 4 documents, not `asset=web&asset=api`.
    querySerializer: { array: { style: 'form', explode: false } },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  if (options.stats) client.use(countingMiddleware(options.stats));
  if (options.apiKey !== null) client.use(bearerMiddleware(options.apiKey, baseUrl));
  return client;
}

/**
 * Adds `Authorization: Bearer` to requests for this server only. The key lives in this closure;
 * the middleware object itself holds nothing that inspect or a log could show.
 */
function bearerMiddleware(apiKey: string, baseUrl: string): Middleware {
  const origin = new URL(baseUrl).origin;
  return {
    onRequest({ request }) {
      if (new URL(request.url).origin !== origin) return undefined;
      request.headers.set('Authorization', `Bearer ${apiKey}`);
      return request;
    },
  };
}

function countingMiddleware(stats: RequestStats): Middleware {
  return {
    onRequest() {
      stats.countRequest();
      return undefined;
    },
    onResponse({ response }) {
      stats.countResponse(response.status);
      return undefined;
    },
    onError() {
      stats.countNoAnswer();
      return undefined;
    },
  };
}
