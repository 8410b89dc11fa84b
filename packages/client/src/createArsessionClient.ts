import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/openapi.js';
import { multipartBody } from './multipartBody.js';

/** A client of one arsession server: `GET`, `POST` on its paths, typed from its OpenAPI document. */
export type ArsessionClient = Client<paths>;

/** Options of {@link createArsessionClient}. */
export interface ArsessionClientOptions {
  /** The server's base URL, e.g. `https://ar.example.com` (no path: the paths are the interface's own). */
  baseUrl: string;
  /** Sent as X-API-Key: required by every session endpoint but by_plane, and by the saved models. */
  apiKey?: string;
  /** The fetch to use (tests, proxies, retries); the global one otherwise. */
  fetch?: typeof globalThis.fetch;
}

/**
 * A typed client of the arsession HTTP interface: each path, its parameters, its body and each of
 * its answers (the 201 record, the problem+json of a refusal) typed from the OpenAPI document
 * the server serves. Forms that carry a file go as multipart/form-data; the claim goes as JSON.
 *
 * @example
 * ```ts
 * const ar = createArsessionClient({ baseUrl: 'https://ar.example.com', apiKey: process.env.ARSESSION_KEY });
 * const { data, error } = await ar.POST('/api/vision/v1/session/by_plane/', {
 *   body: { model_file: new File([await readFile('house.ifc')], 'house.ifc') },
 * });
 * if (error) throw new Error(`${error.code}: ${error.detail}`);
 * console.log(data.deeplink, data.onetime_code);
 * ```
 */
export function createArsessionClient(options: ArsessionClientOptions): ArsessionClient {
  return createClient<paths>({
    baseUrl: options.baseUrl,
    ...(options.fetch && { fetch: options.fetch }),
    ...(options.apiKey !== undefined && { headers: { 'X-API-Key': options.apiKey } }),
    bodySerializer: multipartBody,
  });
}
