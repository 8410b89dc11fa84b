import { request } from 'node:http';
import type { RawAnswer } from './rawUpload.js';

/**
 * An HTTP request sent from a chosen loopback address (`127.0.0.2`, `127.0.0.3`, …): to the server
 * these are different clients, as different machines would be. `path` goes on the wire exactly as
 * given (no URL normalisation folds `%2e%2e` away), and no header is added beyond Host.
 */
export function requestFrom(
  localAddress: string,
  baseUrl: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method: options.method ?? 'GET', headers: options.headers, localAddress }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.once('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.once('error', reject);
    req.end(options.body);
  });
}
