/**
 * The engine's fetch with a script for some requests, to make a server's uncertain outcomes
 * happen at an exact point: every other request goes to the sandbox unchanged. A step may let
 * another writer act while the engine's request is on its way, then forward the request, answer
 * for the server, or lose the answer.
 */
export type Step = (request: Request) => Promise<Response>;

export interface ScriptedFetch {
  fetch: (request: Request) => Promise<Response>;
  /** Requests that matched, in order. */
  seen: string[];
  /** Steps for the next matching requests, consumed in order; then requests pass unchanged. */
  script(...steps: Step[]): void;
}

export function scriptedFetch(match: (request: Request) => boolean): ScriptedFetch {
  const steps: Step[] = [];
  const seen: string[] = [];
  return {
    seen,
    script: (...next) => void steps.push(...next),
    async fetch(request) {
      if (!match(request)) return fetch(request);
      seen.push(`${request.method} ${new URL(request.url).pathname}`);
      const step = steps.shift();
      return step ? step(request) : fetch(request);
    },
  };
}

/** The request reaches the server and is carried out; its answer is lost. */
export const loseAnswer: Step = async (request) => {
  await fetch(request);
  throw new TypeError('fetch failed: the connection was reset after the request was sent');
};

/** The server fails with 500 before doing anything (the client cannot know that). */
export const failBefore: Step = () => Promise.resolve(serverError());

/** The server's rate limit: resend after `Retry-After` (0 s here, to keep the test short). */
export const rateLimited: Step = () =>
  Promise.resolve(
    new Response(JSON.stringify({ detail: 'Too many requests.', code: 'rate_limited' }), {
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '0' },
    }),
  );

/** The connection drops before the request reaches the server. */
export const dropBefore: Step = () =>
  Promise.reject(new TypeError('fetch failed: the connection was reset before the request left'));

function serverError(): Response {
  return new Response(JSON.stringify({ detail: 'Internal error.', code: 'internal_error' }), {
    status: 500,
    headers: { 'content-type': 'application/json', 'x-request-id': 'scripted-500' },
  });
}

/** Runs `meanwhile` (another writer) while the request is on its way, then applies `then`. */
export const after =
  (meanwhile: () => Promise<unknown>, then: Step): Step =>
  async (request) => {
    await meanwhile();
    return then(request);
  };

export const forward: Step = (request) => fetch(request);

export const isMessagePost = (request: Request): boolean =>
  request.method === 'POST' && new URL(request.url).pathname.endsWith('/messages');

export const isDraftSave = (request: Request): boolean =>
  request.method === 'PUT' && /^\/api\/reports\/[0-9a-f-]{36}$/.test(new URL(request.url).pathname);

export const isFileUpload = (request: Request): boolean =>
  request.method === 'PUT' && /\/files\/[0-9a-f-]{36}$/.test(new URL(request.url).pathname);
