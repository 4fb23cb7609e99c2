// Waiting for a promise that cannot itself be cancelled (a DNS query, a shared lookup), but giving up as
// soon as the caller's signal (or Deadline) aborts. The underlying work finishes on its own bounded timeout.
import type { AbortLike } from './deadline.js';

export function abortable<T>(promise: Promise<T>, signal: AbortLike | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
