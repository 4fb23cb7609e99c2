// Group commit for the settler's transfers (chain.ts): one group is handled at a time, and the calls that
// arrive while it is under way wait and go together as the next one. Nothing waits when nothing is under
// way (a group starts on the next turn of the event loop, gathering the calls made in this one), so a lone
// call costs no delay; under load the groups grow up to maxSize, so the rate of groups, not of calls, is
// what a slow handler (a remote RPC node, two round trips a transaction) limits.

export interface CallGroupOptions<T, R> {
  maxSize: number;
  /** Handles one group: a settled result per item, in the items' order. */
  run: (items: T[]) => Promise<PromiseSettledResult<R>[]>;
}

interface Waiting<T, R> {
  item: T;
  resolve: (value: R) => void;
  reject: (reason: unknown) => void;
}

export class CallGroups<T, R> {
  private waiting: Waiting<T, R>[] = [];
  /** A group is under way, or about to start on the next turn. */
  private busy = false;

  constructor(private readonly o: CallGroupOptions<T, R>) {
    if (!(o.maxSize >= 1)) throw new RangeError('a call group holds at least one call');
  }

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.busy) {
        this.busy = true;
        setImmediate(() => this.next());
      }
    });
  }

  /** Starts the next group, if calls wait; the group after it starts when it ends. */
  private next(): void {
    const group = this.waiting.splice(0, this.o.maxSize);
    if (group.length === 0) {
      this.busy = false;
      return;
    }
    void this.o
      .run(group.map((w) => w.item))
      .then(
        (results) =>
          group.forEach((w, i) => {
            const r = results[i];
            if (r?.status === 'fulfilled') w.resolve(r.value);
            else w.reject(r ? r.reason : new Error('a call group ended without a result for this call'));
          }),
        (err: unknown) => group.forEach((w) => w.reject(err)),
      )
      .finally(() => this.next());
  }
}
