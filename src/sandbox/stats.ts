/** Request counters for `GET /__sandbox/stats` (researcher-API requests since start or reset). */
export interface StatsView {
  requests: number;
  by_status: Record<string, number>;
  by_route: Record<string, number>;
}

export class RequestStats {
  private requests = 0;
  private byStatus = new Map<string, number>();
  private byRoute = new Map<string, number>();

  /** `status` 0 stands for a dropped connection. */
  record(route: string, status: number): void {
    this.requests += 1;
    const s = String(status);
    this.byStatus.set(s, (this.byStatus.get(s) ?? 0) + 1);
    this.byRoute.set(route, (this.byRoute.get(route) ?? 0) + 1);
  }

  view(): StatsView {
    return {
      requests: this.requests,
      by_status: Object.fromEntries(this.byStatus),
      by_route: Object.fromEntries(this.byRoute),
    };
  }

  reset(): void {
    this.requests = 0;
    this.byStatus.clear();
    this.byRoute.clear();
  }
}
