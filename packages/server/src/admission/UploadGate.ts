import { ApiError } from '../errors/ApiError.js';

/** Options of {@link createUploadGate}. */
export interface UploadGateOptions {
  /** Session requests one client may have sending their bodies at once. */
  perClient: number;
}

/** Who may send a request body now: at most a few at a time from each client. */
export interface UploadGate {
  /**
   * Lets a body from `client` in, or throws 429 `too_many_uploads` with `Retry-After`; call the returned function when the body has been
   * read (or refused).
   */
  enter(client: string): () => void;
  /** Bodies being received now, all clients together. */
  readonly receiving: number;
}

/**
 * The per-client cap on bodies arriving at once. A session request takes a conversion slot only
 * once its body has arrived (see `Admission`): clients that send slowly then hold only their own
 * upload places, and a client that opens many slow uploads is stopped at its cap instead of
 * holding every conversion slot (nine slow connections used to stop the service for ten minutes).
 *
 * @example
 * ```ts
 * const gate = createUploadGate({ perClient: 4 });
 * const done = gate.enter(clientKey(req.ip));
 * try { await readForm(); } finally { done(); }
 * ```
 */
export function createUploadGate(options: UploadGateOptions): UploadGate {
  const byClient = new Map<string, number>();
  let receiving = 0;
  return {
    get receiving() {
      return receiving;
    },
    enter(client) {
      const now = byClient.get(client) ?? 0;
      if (now >= options.perClient) {
        throw new ApiError(
          429,
          'too_many_uploads',
          `this client is already sending ${now} uploads, the most it may send ` +
            `at once (ARSESSION_UPLOADS_PER_CLIENT); retry when one has arrived`,
          [{ field: 'model_file', message: `at most ${options.perClient} uploads at once per client` }],
          { 'Retry-After': '5' },
        );
      }
      byClient.set(client, now + 1);
      receiving++;
      let left = false;
      return () => {
        if (left) return;
        left = true;
        receiving--;
        const after = byClient.get(client)! - 1;
        if (after === 0) byClient.delete(client);
        else byClient.set(client, after);
      };
    },
  };
}

/**
 * The client a request counts against: its address, or for IPv6 its /64 — one host is given a
 * whole /64, and would otherwise be a new client at every address in it.
 *
 * @example
 * ```ts
 * clientKey('2001:db8:1:2:aaaa::1'); // → '2001:db8:1:2::/64'
 * clientKey('::ffff:203.0.113.9'); // → '203.0.113.9'
 * ```
 */
export function clientKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (v4) return v4[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`;
}
