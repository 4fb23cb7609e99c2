// The remote geocoder's HTTP: through the network guard's client (http/https only, no private or loopback
// address unless NETWORK_ALLOWLIST opens it, address pinned per connection), no redirects, bounded body.
import { request } from 'undici';
import type { HttpClient } from '../../../net/http-client.js';
import type { JsonFetch } from './remote-geocoder.js';

const MAX_BODY_BYTES = 2 * 1024 * 1024;

export function guardedJsonFetch(client: HttpClient): JsonFetch {
  return async (url, init) => {
    client.guard.checkUrl(url);
    const res = await request(url, { method: 'GET', headers: init.headers, signal: init.signal, dispatcher: client.agent });
    if (res.statusCode < 200 || res.statusCode >= 300) {
      await res.body.dump();
      return { status: res.statusCode, body: undefined };
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) {
        res.body.destroy();
        throw new Error(`answer larger than ${MAX_BODY_BYTES} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    try {
      return { status: res.statusCode, body: JSON.parse(text) as unknown };
    } catch {
      throw new Error('answer is not JSON');
    }
  };
}
