// The listener's metrics in the Prometheus text exposition format (version 0.0.4: `# HELP`, `# TYPE`, one sample
// a line, label values escaped, a histogram as cumulative `_bucket{le}` lines with `_sum` and `_count`).

/** The latency buckets in seconds: a quick refusal to a check of a large package. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Methods named in the labels as they are; any other is counted as "other", so a client cannot grow the series. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']);

/** A label value as the exposition format writes it: backslash, double quote and line feed escaped. */
function labelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function labels(pairs: Record<string, string>): string {
  return `{${Object.entries(pairs).map(([k, v]) => `${k}="${labelValue(v)}"`).join(',')}}`;
}

export class Metrics {
  private readonly requests = new Map<string, number>();
  private readonly jobs = new Map<string, number>();
  private readonly buckets = BUCKETS.map(() => 0);
  private sum = 0;
  private count = 0;
  inFlight = 0;

  /** Counts one answered request, its latency and, when it submitted a job, the job's outcome. */
  record(method: string, status: number, seconds: number, job?: { accepted: boolean; returnCode: number }): void {
    const key = labels({ method: METHODS.has(method) ? method : 'other', code: String(status) });
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
    BUCKETS.forEach((le, i) => {
      if (seconds <= le) this.buckets[i]! += 1;
    });
    this.sum += seconds;
    this.count += 1;
    if (job) {
      const jobKey = labels({ outcome: job.accepted ? 'accepted' : 'refused', return_code: String(job.returnCode) });
      this.jobs.set(jobKey, (this.jobs.get(jobKey) ?? 0) + 1);
    }
  }

  /** The exposition text, served as `text/plain; version=0.0.4`. */
  text(): string {
    const out: string[] = [];
    const family = (name: string, type: string, help: string) => out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    family('jdf_filespec_http_requests_total', 'counter', 'HTTP requests answered, by method and status code.');
    for (const [key, n] of this.requests) out.push(`jdf_filespec_http_requests_total${key} ${n}`);
    family('jdf_filespec_http_request_duration_seconds', 'histogram', 'Time from a request\'s headers to the end of its answer.');
    BUCKETS.forEach((le, i) => out.push(`jdf_filespec_http_request_duration_seconds_bucket{le="${le}"} ${this.buckets[i]}`));
    out.push(`jdf_filespec_http_request_duration_seconds_bucket{le="+Inf"} ${this.count}`);
    out.push(`jdf_filespec_http_request_duration_seconds_sum ${this.sum}`, `jdf_filespec_http_request_duration_seconds_count ${this.count}`);
    family('jdf_filespec_jobs_total', 'counter', 'Submitted jobs, by outcome (accepted or refused) and JMF ReturnCode.');
    for (const [key, n] of this.jobs) out.push(`jdf_filespec_jobs_total${key} ${n}`);
    family('jdf_filespec_http_requests_in_flight', 'gauge', 'Requests being answered now.');
    out.push(`jdf_filespec_http_requests_in_flight ${this.inFlight}`);
    return out.join('\n') + '\n';
  }
}
