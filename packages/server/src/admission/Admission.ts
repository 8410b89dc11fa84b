import { ApiError } from '../errors/ApiError.js';

/** Sizes of {@link createAdmission}. */
export interface AdmissionOptions {
  /** Conversions running at once. */
  workers: number;
  /** Session requests allowed in beyond those converting (uploading, or waiting for a worker). */
  queue: number;
}

/** What the server's session endpoints need to know about capacity. */
export interface Admission {
  /** Admits a session request or throws 503 with `Retry-After`; call the returned function when it ends. */
  admit(): () => void;
  /** Runs `job` when a worker is free (the request was admitted, so the wait is bounded). */
  withWorker<T>(job: () => Promise<T>): Promise<T>;
  /** Requests admitted and not yet finished. */
  readonly inFlight: number;
  /** Requests it admits at once (`workers + queue`). */
  readonly capacity: number;
  /** Conversions waiting for a worker slot (and since when, ms since the epoch, the longest), and converting. */
  conversions(): { waiting: number; active: number; oldestWaitingSince: number | undefined };
}

/**
 * Bounded admission: at most `workers + queue` session requests in the server at once; beyond
 * that the answer is 503 with `Retry-After` straight away, before any upload is read, rather than
 * an unbounded queue that would time every client out. Conversions among the admitted requests
 * take turns on `workers` slots.
 *
 * @example
 * ```ts
 * const admission = createAdmission({ workers: 2, queue: 8 });
 * const leave = admission.admit();
 * try { await admission.withWorker(() => convert()); } finally { leave(); }
 * ```
 */
export function createAdmission(options: AdmissionOptions): Admission {
  const capacity = options.workers + options.queue;
  let inFlight = 0;
  let running = 0;
  const waiting: Array<{ start: () => void; since: number }> = [];
  const next = () => {
    if (running < options.workers) {
      const first = waiting.shift();
      if (first) {
        running++;
        first.start();
      }
    }
  };
  return {
    get inFlight() {
      return inFlight;
    },
    capacity,
    conversions: () => ({ waiting: waiting.length, active: running, oldestWaitingSince: waiting[0]?.since }),
    admit() {
      if (inFlight >= capacity) {
        throw new ApiError(503, 'saturated', `the server is converting at capacity (${capacity} requests in progress); retry shortly`, [], {
          'Retry-After': '5',
        });
      }
      inFlight++;
      let left = false;
      return () => {
        if (left) return;
        left = true;
        inFlight--;
      };
    },
    async withWorker<T>(job: () => Promise<T>): Promise<T> {
      await new Promise<void>((resolve) => {
        waiting.push({ start: resolve, since: Date.now() });
        next();
      });
      try {
        return await job();
      } finally {
        running--;
        next();
      }
    },
  };
}
