/**
 * Fault injection (`POST /__sandbox/faults`): a share of researcher-API requests gets an error
 * status, a dropped connection or added latency. Decisions come from a seeded PRNG, so the same
 * seed and the same request sequence give the same faults.
 */
export interface FaultConfig {
  rate: number;
  statuses: number[];
  reset_connection: boolean;
  latency_ms: number;
  seed: number;
}

export type Fault =
  | { kind: 'status'; status: number }
  | { kind: 'drop'; afterHandling: boolean }
  | { kind: 'latency'; ms: number };

/** mulberry32: tiny, fast, good enough for test decisions. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FaultInjector {
  private config: FaultConfig | null = null;
  private next: () => number = prng(1);

  configure(config: FaultConfig): void {
    this.config = config;
    this.next = prng(config.seed);
  }

  clear(): void {
    this.config = null;
  }

  get current(): FaultConfig | null {
    return this.config;
  }

  /** One decision per request, drawn in request order. */
  decide(): Fault | null {
    const c = this.config;
    if (!c) return null;
    const roll = this.next();
    const pick = this.next();
    const half = this.next();
    if (roll >= c.rate) return null;
    const options: Fault[] = c.statuses.map((status) => ({ kind: 'status', status }) as Fault);
    if (c.reset_connection) options.push({ kind: 'drop', afterHandling: half < 0.5 });
    if (c.latency_ms > 0) options.push({ kind: 'latency', ms: c.latency_ms });
    if (options.length === 0) options.push({ kind: 'status', status: 503 });
    return options[Math.min(options.length - 1, Math.floor(pick * options.length))] ?? null;
  }
}

/** The error code an injected status carries. */
export function faultCode(status: number): string {
  switch (status) {
    case 408:
      return 'request_timeout';
    case 429:
      return 'rate_limited';
    case 503:
      return 'busy';
    case 500:
      return 'internal_error';
    default:
      return status >= 500 ? 'internal_error' : 'injected_fault';
  }
}
