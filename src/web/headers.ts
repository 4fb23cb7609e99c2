// Request headers read the same way on an Express request and a plain Node one (the fast lane).
import type { IncomingHttpHeaders } from 'node:http';

/** One header's value; a repeated header's values joined as Node joins most names. */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** Every header as one string (what the x402 payment gate reads). */
export function flatHeaders(headers: IncomingHttpHeaders): Record<string, string | undefined> {
  // fromEntries defines own properties, so a header named __proto__ stays a header.
  return Object.fromEntries(Object.keys(headers).map((name) => [name, headerValue(headers, name)]));
}
