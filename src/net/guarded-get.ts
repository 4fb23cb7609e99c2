// One GET of a file through the network guard: every hop's URL checked (scheme, literal address) and every
// connection's resolved address checked and pinned by the guarded agent, redirects followed by hand up to
// the same limit as url.status, the body read up to a byte cap, all within a time limit. Used to read
// documents (PDF, DOCX, …) a browser would only offer as a download.
import { request } from 'undici';
import { ToolError } from '../errors.js';
import { flattenHeaders } from './fetch-headers.js';
import type { HttpClient } from './http-client.js';
import { MAX_REDIRECTS } from './redirect-limit.js';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface GuardedGetOptions {
  headers?: Record<string, string> | undefined;
  /** A larger body fails the request, before it is read when Content-Length says so. */
  maxBytes: number;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

export interface GuardedGetResult {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  /** Lower-cased names. */
  headers: Record<string, string>;
  body: Buffer;
}

function megabytes(bytes: number): string {
  return `${Math.round(bytes / 100_000) / 10} MB`;
}

export async function guardedGet(client: HttpClient, url: string, opts: GuardedGetOptions): Promise<GuardedGetResult> {
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let current = client.guard.checkUrl(url);
  try {
    for (let hop = 0; ; hop++) {
      const res = await request(current, {
        method: 'GET',
        // Identity: the cap counts the bytes as sent, and nothing here has to inflate a hostile stream.
        headers: { 'accept-encoding': 'identity', ...opts.headers },
        signal,
        dispatcher: client.agent,
      });
      const headers = flattenHeaders(res.headers);
      if (REDIRECTS.has(res.statusCode) && headers.location) {
        await res.body.dump();
        if (hop >= MAX_REDIRECTS) throw new ToolError(`Too many redirects (more than ${MAX_REDIRECTS}) from ${url}.`, 'input');
        current = client.guard.checkUrl(new URL(headers.location, current));
        continue;
      }
      const declared = Number(headers['content-length']);
      if (Number.isFinite(declared) && declared > opts.maxBytes) {
        res.body.destroy();
        throw new ToolError(`${current.href} is ${megabytes(declared)}, more than the ${megabytes(opts.maxBytes)} limit for documents.`, 'input');
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > opts.maxBytes) {
          res.body.destroy();
          throw new ToolError(`${current.href} is more than the ${megabytes(opts.maxBytes)} limit for documents.`, 'input');
        }
        chunks.push(chunk as Buffer);
      }
      return { url: current.href, status: res.statusCode, headers, body: Buffer.concat(chunks) };
    }
  } catch (err) {
    if (timeout.aborted && !opts.signal?.aborted)
      throw new ToolError(`${current.href} did not finish downloading within ${Math.round(opts.timeoutMs / 1000)} s.`, 'transient');
    if (err instanceof ToolError || opts.signal?.aborted) throw err;
    throw new ToolError(`Could not download ${current.href}: ${(err as Error).message}`, 'transient');
  }
}
