/** Retries fast so tests do not wait for production backoffs; the rules stay the same. */
export const FAST_RETRY = {
  backoffBaseMs: 20,
  backoffMaxMs: 200,
  unavailableWaitMs: 200,
  rateLimitWaitMs: 200,
  random: () => 0.5,
};
