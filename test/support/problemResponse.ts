import { expect } from 'vitest';

/** A session endpoint's answer as postSession returns it. */
export interface SessionAnswer {
  status: number;
  body: Record<string, any>;
  headers: Headers;
}

/**
 * Asserts a refusal in the contract's shape: a 4xx (never a 500), application/problem+json, a
 * stable `type`, a `detail` in words, and at least one `errors` entry naming a field.
 */
export function expectProblem(r: SessionAnswer, allowedStatuses: readonly number[]): void {
  expect(allowedStatuses, `status ${r.status}: ${JSON.stringify(r.body)}`).toContain(r.status);
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(r.body).toMatchObject({ status: r.status, type: expect.stringMatching(/^urn:arsession:problem:/), detail: expect.any(String) });
  expect(r.body.errors?.length, JSON.stringify(r.body)).toBeGreaterThan(0);
  for (const e of r.body.errors) expect(e).toMatchObject({ field: expect.stringMatching(/\S/), message: expect.stringMatching(/\S/) });
}
