// Resolvers that serve one task at a time and are then reused. dns.lookup gave every task a resolver of
// its own (a c-ares channel created, queried once and cancelled), so that cancelling one task stops only
// that task's queries; creating the channel was most of the tool's own CPU. A pooled resolver keeps that
// isolation: while a task holds it nobody else queries through it, it goes back only once every query
// has answered, and one cancelled by its task's abort is dropped, never reused.
import type { Resolver } from 'node:dns/promises';

/** Idle resolvers kept (more than the tasks that ever run at once are simply dropped). */
const MAX_IDLE = 64;

export class ResolverPool {
  private readonly idle: Resolver[] = [];

  constructor(
    private readonly make: () => Resolver,
    private readonly maxIdle = MAX_IDLE,
  ) {}

  /** Runs `queries` on a resolver of its own; `signal` aborting cancels that resolver's queries. */
  async use<T>(signal: AbortSignal, queries: (resolver: Resolver) => Promise<T>): Promise<T> {
    signal.throwIfAborted();
    const resolver = this.idle.pop() ?? this.make();
    let cancelled = false;
    const onAbort = () => {
      cancelled = true;
      resolver.cancel();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    let settled = false;
    try {
      const answer = await queries(resolver);
      settled = true;
      return answer;
    } finally {
      signal.removeEventListener('abort', onAbort);
      // Reused only when `queries` answered (it awaits all its queries) and nothing was cancelled;
      // otherwise a query may still be outstanding, and cancelling it keeps it from outliving the task.
      if (settled && !cancelled && this.idle.length < this.maxIdle) this.idle.push(resolver);
      else resolver.cancel();
    }
  }

  /** Idle resolvers held (for tests and shutdown). */
  get idleCount(): number {
    return this.idle.length;
  }

  close(): void {
    for (const r of this.idle.splice(0)) r.cancel();
  }
}
