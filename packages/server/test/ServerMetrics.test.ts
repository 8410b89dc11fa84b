import { describe, expect, it } from 'vitest';
import { ModelUnreadableError } from '@arsession/convert';
import { observeConversion } from '../src/metrics/observeConversion.js';
import { ServerMetrics } from '../src/metrics/ServerMetrics.js';
import { sampleValue } from '../../../test/support/prometheusText.js';

describe('ServerMetrics', () => {
  it("reads the queue and the admission at each scrape: depth by state, the oldest job's age, load and capacity", async () => {
    const metrics = new ServerMetrics('api');
    const since = Date.now() - 5_000;
    metrics.watchQueue(async () => ({ waiting: 3, active: 1, failed: 2, oldestWaitingSince: since }));
    metrics.watchAdmission(() => ({ inFlight: 7, capacity: 10 }));
    const text = await metrics.text();
    expect(sampleValue(text, 'arsession_queue_jobs', { state: 'waiting', role: 'api' })).toBe(3);
    expect(sampleValue(text, 'arsession_queue_jobs', { state: 'failed' })).toBe(2);
    const age = sampleValue(text, 'arsession_queue_oldest_waiting_seconds')!;
    expect(age).toBeGreaterThanOrEqual(5);
    expect(age).toBeLessThan(30);
    expect(sampleValue(text, 'arsession_requests_in_flight')).toBe(7);
    expect(sampleValue(text, 'arsession_requests_capacity')).toBe(10);
    // Nothing waiting: age 0.
    metrics.watchQueue(async () => ({ waiting: 0, active: 0, failed: 0, oldestWaitingSince: undefined }));
    expect(sampleValue(await metrics.text(), 'arsession_queue_oldest_waiting_seconds')).toBe(0);
  });

  it('reads the queue once per scrape, however many gauges show it', async () => {
    const metrics = new ServerMetrics('api');
    let reads = 0;
    metrics.watchQueue(async () => {
      reads++;
      return { waiting: 1, active: 0, failed: 0, oldestWaitingSince: Date.now() };
    });
    await metrics.text();
    expect(reads).toBe(1);
    await metrics.text();
    expect(reads).toBe(2);
  });

  it(
    "leaves the queue's depths out of a scrape while it cannot be " + 'reached (its oldest age NaN), rather than reporting stale ones',
    async () => {
      const metrics = new ServerMetrics('api');
      metrics.watchQueue(async () => ({ waiting: 4, active: 0, failed: 0, oldestWaitingSince: undefined }));
      expect(sampleValue(await metrics.text(), 'arsession_queue_jobs', { state: 'waiting' })).toBe(4);
      metrics.watchQueue(async () => {
        throw new Error('connection refused');
      });
      const text = await metrics.text();
      expect(sampleValue(text, 'arsession_queue_jobs', { state: 'waiting' })).toBeUndefined();
      expect(sampleValue(text, 'arsession_queue_oldest_waiting_seconds')).toBeNaN();
    },
  );

  it('times a conversion by format and outcome, and counts backing-service errors by service and code', async () => {
    const metrics = new ServerMetrics('worker');
    metrics.conversion('ifc', 'converted', 1.5, { source: 261_069, delivered: 98_112 });
    metrics.conversion('ifc', 'model_too_large', 0.2);
    metrics.backingServiceError('objects', 'object_store_unavailable');
    const text = await metrics.text();
    expect(sampleValue(text, 'arsession_conversion_duration_seconds_sum', { format: 'ifc', outcome: 'converted', role: 'worker' })).toBe(
      1.5,
    );
    expect(sampleValue(text, 'arsession_conversion_duration_seconds_bucket', { format: 'ifc', outcome: 'converted', le: '1' })).toBe(0);
    expect(sampleValue(text, 'arsession_conversion_duration_seconds_bucket', { format: 'ifc', outcome: 'converted', le: '2.5' })).toBe(1);
    expect(sampleValue(text, 'arsession_conversion_duration_seconds_count', { format: 'ifc', outcome: 'model_too_large' })).toBe(1);
    expect(sampleValue(text, 'arsession_ar_budget_triangles_sum', { stage: 'source' })).toBe(261_069);
    expect(sampleValue(text, 'arsession_backing_service_errors_total', { service: 'objects', kind: 'object_store_unavailable' })).toBe(1);
  });

  it('labels a refused conversion by its file name in the terms a converted one has (an .ifczip stays ifczip)', async () => {
    const metrics = new ServerMetrics('worker');
    await expect(
      observeConversion(metrics, 'site.IFCZIP', async () => {
        throw new ModelUnreadableError('site.IFCZIP: no IFC inside');
      }),
    ).rejects.toBeInstanceOf(ModelUnreadableError);
    await expect(
      observeConversion(metrics, 'notes.txt', async () => {
        throw new Error('not ours');
      }),
    ).rejects.toThrow('not ours');
    const text = await metrics.text();
    expect(sampleValue(text, 'arsession_conversion_duration_seconds_count', { format: 'ifczip', outcome: 'model_unreadable' })).toBe(1);
    expect(sampleValue(text, 'arsession_conversion_duration_seconds_count', { format: 'unknown', outcome: 'error' })).toBe(1);
  });
});
