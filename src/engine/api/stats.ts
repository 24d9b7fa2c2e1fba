export interface RequestStatsSnapshot {
  /** HTTP requests sent, resends included. */
  requests: number;
  /** Responses received, by HTTP status. */
  byStatus: Record<number, number>;
  /** 429 responses seen. */
  rateLimited: number;
  /** Requests that got no answer (network failure, timeout, cancellation). */
  noAnswer: number;
}

/** What went over the wire, for benchmarks ("requests made", "429s seen") and diagnostics. */
export class RequestStats {
  #requests = 0;
  #noAnswer = 0;
  readonly #byStatus = new Map<number, number>();

  countRequest(): void {
    this.#requests++;
  }

  countResponse(status: number): void {
    this.#byStatus.set(status, (this.#byStatus.get(status) ?? 0) + 1);
  }

  countNoAnswer(): void {
    this.#noAnswer++;
  }

  snapshot(): RequestStatsSnapshot {
    return {
      requests: this.#requests,
      byStatus: Object.fromEntries(this.#byStatus),
      rateLimited: this.#byStatus.get(429) ?? 0,
      noAnswer: this.#noAnswer,
    };
  }
}
