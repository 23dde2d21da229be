/**
 * Prometheus text exposition of request counts and latency histograms by route and status.
 * Kept in-process and dependency-free: the hot path is one map lookup and a few additions.
 */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Series {
  method: string;
  route: string;
  status: number;
  count: number;
  sum: number;
  buckets: number[];
}

export class HttpMetrics {
  private readonly series = new Map<string, Series>();

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route} ${status}`;
    let entry = this.series.get(key);
    if (!entry) {
      entry = { method, route, status, count: 0, sum: 0, buckets: BUCKETS.map(() => 0) };
      this.series.set(key, entry);
    }
    entry.count++;
    entry.sum += seconds;
    for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]) entry.buckets[i]++;
  }

  render(): string {
    const lines = [
      "# HELP http_requests_total HTTP requests answered, by method, route and status.",
      "# TYPE http_requests_total counter",
    ];
    const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
    const labels = (s: Series) => `method="${s.method}",route="${escapeLabel(s.route)}",status="${s.status}"`;
    for (const s of this.series.values()) lines.push(`http_requests_total{${labels(s)}} ${s.count}`);
    lines.push(
      "# HELP http_request_duration_seconds Time to answer, by method, route and status.",
      "# TYPE http_request_duration_seconds histogram",
    );
    for (const s of this.series.values()) {
      BUCKETS.forEach((bound, i) => {
        lines.push(`http_request_duration_seconds_bucket{${labels(s)},le="${bound}"} ${s.buckets[i]}`);
      });
      lines.push(`http_request_duration_seconds_bucket{${labels(s)},le="+Inf"} ${s.count}`);
      lines.push(`http_request_duration_seconds_sum{${labels(s)}} ${s.sum}`);
      lines.push(`http_request_duration_seconds_count{${labels(s)}} ${s.count}`);
    }
    return `${lines.join("\n")}\n`;
  }
}
