// Work that arrives in the same turn of the event loop, written as one batch: each caller's promise
// settles only once the batch's write has finished, with its own answer, and a failed write rejects
// exactly the callers of that batch. Group commit of creations and batched completions both use it.
// With `maxInFlight`, work arriving while that many writes are running waits for one to finish and then
// goes in the next batch together: classic group commit, where writes that would only queue behind each
// other's row locks in the database queue here instead, as one larger write.

interface Waiting<I, O> {
  item: I;
  resolve(answer: O): void;
  reject(err: unknown): void;
}

export class TurnBatch<I, O> {
  private waiting: Waiting<I, O>[] = [];
  private scheduled = false;
  private inFlight = 0;

  constructor(
    /** Writes one batch; answers one result per item, in order. */
    private readonly write: (items: I[]) => Promise<O[]>,
    /** Most items in one write: bounds the statement and how long its row locks are held. */
    private readonly maxBatch: number,
    /** Most writes running at once; the rest wait and join the next batch. */
    private readonly maxInFlight = Infinity,
  ) {}

  add(item: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // After this turn's I/O callbacks: everything arriving in the same turn joins the batch.
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    while (this.waiting.length > 0 && this.inFlight < this.maxInFlight) {
      this.inFlight++;
      void this.run(this.waiting.splice(0, this.maxBatch)).finally(() => {
        this.inFlight--;
        if (this.waiting.length > 0) this.schedule();
      });
    }
  }

  private async run(batch: Waiting<I, O>[]): Promise<void> {
    try {
      const answers = await this.write(batch.map((w) => w.item));
      if (answers.length !== batch.length) throw new Error(`a batch write answered ${answers.length} results for ${batch.length} items`);
      batch.forEach((w, i) => w.resolve(answers[i]!));
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  }
}
