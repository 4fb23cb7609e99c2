// Creating several tasks in one transaction (group commit, src/engine/group-commit.ts). Each creation
// keeps every guarantee of a single one (its nonce, idempotency key, charge and insert succeed or fail
// together) and its own outcome: a refusal is undone to a savepoint of its own, so it leaves no trace
// and the others still commit. A plain creation needs no savepoint: its charge-and-insert writes
// nothing when refused. Any other error fails the whole transaction, and then nothing is written.
import type { CreateTaskOutcome, NewTask, TaskCreation } from '../../store/port.js';
import { Rollback, type Sql } from '../sql.js';
import { reserveAndInsert, type InsertCharged } from './create-task.js';

/**
 * The order the creations are written in: by the key they charge (stable, so creations charging one key
 * keep their order). Every batch then takes api_keys row locks in the same order, so two batches
 * charging the same keys wait for each other instead of deadlocking.
 */
function writeOrder(items: readonly TaskCreation[]): number[] {
  const keyOf = (i: number) => items[i]!.opts.chargeKeyId ?? '';
  return items.map((_, i) => i).sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : a - b));
}

async function createOne(tx: Sql, insert: InsertCharged, { task, opts }: TaskCreation): Promise<CreateTaskOutcome> {
  if (!opts.idempotency && !opts.nonce) return insert(tx, task, opts.chargeKeyId);
  await tx.run('SAVEPOINT creation');
  const outcome = await reserveAndInsert(tx, insert, task, opts).catch(async (err: unknown) => {
    if (!(err instanceof Rollback)) throw err;
    await tx.run('ROLLBACK TO SAVEPOINT creation');
    return err.value as CreateTaskOutcome;
  });
  await tx.run('RELEASE SAVEPOINT creation');
  return outcome;
}

/** A dialect's charge-and-insert of several plain creations on one key at once; null (nothing written) when the key cannot pay for all. */
export type InsertManyCharged = (q: Sql, tasks: readonly NewTask[], chargeKeyId: string | undefined) => Promise<CreateTaskOutcome[] | null>;

const isPlain = (c: TaskCreation) => !c.opts.idempotency && !c.opts.nonce;

/** The outcomes in the order of `items`, once the transaction has committed. */
export function createTasks(db: Sql, insert: InsertCharged, items: readonly TaskCreation[], insertMany?: InsertManyCharged): Promise<CreateTaskOutcome[]> {
  // One run of creations per key, in the write order (so in key order).
  const runs = new Map<string | undefined, number[]>();
  for (const i of writeOrder(items)) {
    const key = items[i]!.opts.chargeKeyId;
    const run = runs.get(key);
    if (run) run.push(i);
    else runs.set(key, [i]);
  }
  // A transaction that is run again (PostgreSQL, on a deadlock or serialization failure) starts afresh.
  return db.transaction(async (tx) => {
    const outcomes: CreateTaskOutcome[] = new Array<CreateTaskOutcome>(items.length);
    for (const [key, run] of runs) {
      // A key's plain creations go in one statement where the dialect can, and one by one when the key
      // cannot pay for all of them (some may still be covered).
      const plain = run.filter((i) => isPlain(items[i]!));
      const written =
        insertMany && plain.length > 1
          ? await insertMany(
              tx,
              plain.map((i) => items[i]!.task),
              key,
            )
          : null;
      written?.forEach((outcome, j) => (outcomes[plain[j]!] = outcome));
      for (const i of run) if (!written || !isPlain(items[i]!)) outcomes[i] = await createOne(tx, insert, items[i]!);
    }
    return outcomes;
  });
}
