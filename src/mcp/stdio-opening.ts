// stdio picks the protocol era from the client's first message, as the v2 SDK's serveStdio does: a message
// carrying the 2026-07-28 _meta envelope (a server/discover probe, or a pinned client's first request)
// opens a 2026-07-28 connection; anything else (initialize, or any claim-less message) a 2025-11-25 one.
// The first line is read here and replayed, so the chosen server's transport sees the stream whole.
import { PassThrough, type Readable } from 'node:stream';

/**
 * The v2 SDK's PROTOCOL_VERSION_META_KEY, written out: importing it would load the whole v2 SDK before the
 * first message, which a 2025-11-25 client never needs (a unit test keeps the two equal).
 */
export const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';

export type Era = 'legacy' | 'modern';

export interface Opening {
  era: Era;
  /** The input stream to hand to the transport: the first line again, then everything after it. */
  input: Readable;
  /** The first message, when it parsed. */
  first: unknown;
}

export function eraOf(message: unknown): Era {
  const meta = (message as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta;
  return meta && typeof meta === 'object' && PROTOCOL_VERSION_META_KEY in meta ? 'modern' : 'legacy';
}

/** Waits for the first complete line on `stdin` (undefined when the stream ends first). */
export function readOpening(stdin: Readable): Promise<Opening | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      const all = Buffer.concat(chunks);
      const newline = all.indexOf(0x0a);
      if (newline === -1) return;
      cleanup();
      stdin.pause();
      let first: unknown;
      try {
        first = JSON.parse(all.subarray(0, newline).toString('utf8'));
      } catch {
        first = undefined;
      }
      const input = new PassThrough();
      input.write(all);
      stdin.pipe(input);
      resolve({ era: eraOf(first), input, first });
    };
    const onEnd = () => {
      cleanup();
      resolve(undefined);
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const cleanup = () => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.off('error', onError);
    };
    stdin.on('data', onData);
    stdin.once('end', onEnd);
    stdin.once('error', onError);
  });
}
