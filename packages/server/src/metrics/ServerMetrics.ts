import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

import type { QueueCounts } from '../jobs/ConversionJobs.js';

/** An API node's admission: requests in it now, and how many it takes at once. */
export interface AdmissionLoad {
  inFlight: number;
  capacity: number;
}

/** A backing service a request can find unavailable. */
export type BackingService = 'store' | 'objects' | 'queue';

/**
 * What a role tells Prometheus, by its conventions (`arsession_` names, base units, `_total` for
 * counters): one registry per process with a verb per event, so handlers say what happened and
 * never touch a metric. Node's own process metrics (event-loop lag, heap, GC) come with it.
 *
 * @example
 * ```ts
 * const metrics = new ServerMetrics('api');
 * metrics.sessionCreated('by_plane');
 * res.type(metrics.contentType).send(await metrics.text());
 * ```
 */
export class ServerMetrics {
  /** The process's prom-client registry (a test or an embedder may add metrics of its own). */
  readonly registry = new Registry();
  private readonly requests: Histogram<'route' | 'method' | 'status'>;
  private readonly sessions: Counter<'method'>;
  private readonly conversions: Histogram<'format' | 'outcome'>;
  private readonly budgetTriangles: Histogram<'stage'>;
  private readonly cache: Counter<'result'>;
  private readonly claims: Counter<'outcome'>;
  private readonly serviceErrors: Counter<'service' | 'kind'>;
  private queueCounts: (() => Promise<QueueCounts>) | undefined;
  private admission: (() => AdmissionLoad) | undefined;
  private pendingCounts: Promise<QueueCounts | undefined> | undefined;

  constructor(role: 'all' | 'api' | 'worker') {
    const registers = [this.registry];
    this.registry.setDefaultLabels({ role });
    collectDefaultMetrics({ register: this.registry });
    // Three of prom-client's defaults are gauges named *_total, which promtool (and Prometheus'
    // naming rules: _total is a counter's) object to; their per-type twins without _total stay.
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
      this.registry.removeSingleMetric(name);
    this.requests = new Histogram({
      name: 'arsession_http_request_duration_seconds',
      help: 'HTTP requests by route template, method and status, from arrival to the last byte sent.',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    this.sessions = new Counter({
      name: 'arsession_sessions_created_total',
      help: 'Sessions created (answered 201), by placement method.',
      labelNames: ['method'],
      registers,
    });
    this.conversions = new Histogram({
      name: 'arsession_conversion_duration_seconds',
      help: "Conversions run by this process, by source format and outcome (converted, or the refusal's code).",
      labelNames: ['format', 'outcome'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    });
    this.budgetTriangles = new Histogram({
      name: 'arsession_ar_budget_triangles',
      help: 'Triangles of each converted model under the AR budget: as the source draws them, and as delivered.',
      labelNames: ['stage'],
      buckets: [1e3, 1e4, 5e4, 1e5, 2.5e5, 1e6, 1e7, 1e8],
      registers,
    });
    this.cache = new Counter({
      name: 'arsession_conversion_cache_lookups_total',
      help: 'Conversion cache lookups, by result (hit, miss).',
      labelNames: ['result'],
      registers,
    });
    this.claims = new Counter({
      name: 'arsession_claims_total',
      help: "One-time code claims, by outcome (claimed; retried, by the client that claimed it; or the refusal's code).",
      labelNames: ['outcome'],
      registers,
    });
    this.serviceErrors = new Counter({
      name: 'arsession_backing_service_errors_total',
      help: "Requests a backing service failed (store, objects, queue), by the error's code.",
      labelNames: ['service', 'kind'],
      registers,
    });
    const queue: Gauge<'state'> = new Gauge({
      name: 'arsession_queue_jobs',
      help: 'Conversion jobs by state (waiting, active, failed), as counted at scrape.',
      labelNames: ['state'],
      registers,
      collect: async (): Promise<void> => {
        if (!this.queueCounts) return;
        // A queue that cannot be reached leaves its depths out of this scrape; its errors are counted elsewhere.
        const counts = await this.countsOfScrape();
        queue.reset();
        if (counts) for (const state of ['waiting', 'active', 'failed'] as const) queue.set({ state }, counts[state]);
      },
    });
    const oldest: Gauge = new Gauge({
      name: 'arsession_queue_oldest_waiting_seconds',
      help: 'How long the conversion job waiting longest has waited (0 when none waits; NaN while the queue cannot be reached), at scrape.',
      registers,
      collect: async (): Promise<void> => {
        if (!this.queueCounts) return;
        const counts = await this.countsOfScrape();
        oldest.set(
          !counts ? Number.NaN : counts.oldestWaitingSince === undefined ? 0 : Math.max(0, (Date.now() - counts.oldestWaitingSince) / 1000),
        );
      },
    });
    const inFlight: Gauge = new Gauge({
      name: 'arsession_requests_in_flight',
      help: 'Session requests admitted by this API node and not yet answered.',
      registers,
      collect: () => {
        if (this.admission) inFlight.set(this.admission().inFlight);
      },
    });
    const capacity: Gauge = new Gauge({
      name: 'arsession_requests_capacity',
      help: 'Session requests this API node admits at once (ARSESSION_WORKERS + ARSESSION_QUEUE); past it, 503 saturated.',
      registers,
      collect: () => {
        if (this.admission) capacity.set(this.admission().capacity);
      },
    });
  }

  /** The queue's counts, read once per scrape for the gauges that share them (a scrape collects every metric at once). */
  private countsOfScrape(): Promise<QueueCounts | undefined> {
    this.pendingCounts ??= this.queueCounts!()
      .catch(() => undefined)
      .finally(() => {
        this.pendingCounts = undefined;
      });
    return this.pendingCounts;
  }

  /** The content type of {@link text}. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** Every metric in Prometheus' text format. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  /** Where the queue gauges read their counts at each scrape. */
  watchQueue(counts: () => Promise<QueueCounts>): void {
    this.queueCounts = counts;
  }

  /** Where the admission gauges read an API node's load at each scrape. */
  watchAdmission(load: () => AdmissionLoad): void {
    this.admission = load;
  }

  /** A request answered (or given up on by its client: `aborted`), by route template. */
  httpRequest(route: string, method: string, status: number | 'aborted', seconds: number): void {
    this.requests.observe({ route, method, status: String(status) }, seconds);
  }

  /** A session answered 201, by its placement method's path. */
  sessionCreated(method: string): void {
    this.sessions.inc({ method });
  }

  /** A conversion run here: its format (`ifc`, `glb`, `usdz`, `unknown`), outcome and time; with the budget's figures when it had one. */
  conversion(format: string, outcome: string, seconds: number, budget?: { source: number; delivered: number }): void {
    this.conversions.observe({ format, outcome }, seconds);
    if (budget) {
      this.budgetTriangles.observe({ stage: 'source' }, budget.source);
      this.budgetTriangles.observe({ stage: 'delivered' }, budget.delivered);
    }
  }

  /** A model looked up in the conversion cache. */
  cacheLookup(result: 'hit' | 'miss'): void {
    this.cache.inc({ result });
  }

  /** A one-time code claim: `claimed`, `retried` (by the client that claimed it), or the refusal's code. */
  claim(outcome: string): void {
    this.claims.inc({ outcome });
  }

  /** A request a backing service failed, with the refusal's code. */
  backingServiceError(service: BackingService, kind: string): void {
    this.serviceErrors.inc({ service, kind });
  }
}
