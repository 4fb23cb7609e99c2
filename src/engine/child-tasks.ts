// The engine's side of child tasks (src/registry/child-tasks.ts): children are appended to the batch named
// after their parent, charged to the parent's payer in the same transaction, and woken like any submission.
import { newId } from '../ids.js';
import { childBatchId, type ChildItem, type ChildTasks } from '../registry/child-tasks.js';
import type { NewTask, TaskRow } from '../store/port.js';
import type { Engine } from './engine.js';
import { pendingRow } from './batches.js';

export function createChildTasks(engine: Engine, signResults: (parentTaskId: string) => Promise<string>): ChildTasks {
  const { store } = engine;
  return {
    async append(parentTaskId, tool, children) {
      const parent = await store.getTask(parentTaskId);
      if (!parent) throw new Error(`no parent task ${parentTaskId}`);
      // An x402 payment is one fixed amount: it covers children only when the parent's price included their
      // budget (childrenBudget, paid up front), and then they cost nothing more.
      if (parent.payer.kind === 'x402' && !engine.registry.get(parent.tool).childrenBudget) return { kind: 'needs_key' };
      if (children.length === 0) return { kind: 'created', firstIndex: -1, taskIds: [] };
      const now = Date.now();
      const charge = parent.payer.kind === 'key' && parent.priceMicros > 0;
      const maxAttempts = engine.registry.get(tool).sideEffects ? 1 : engine.config.engine.maxAttempts;
      const ids = children.map(() => newId('task')).sort();
      const tasks: NewTask[] = children.map((c, i) => ({
        id: ids[i]!,
        tool,
        input: c.input,
        payer: parent.payer,
        // A parent created free (local use) or paid up front (x402) makes free children.
        priceMicros: charge ? c.priceMicros : 0,
        maxAttempts,
        now,
      }));
      const outcome = await store.appendBatch(
        { id: childBatchId(parentTaskId), tool, payer: parent.payer, now, tasks, itemTasks: tasks.map((_, i) => i), session: engine.session ?? null },
        charge && parent.payer.id ? { chargeKeyId: parent.payer.id } : {},
      );
      if (outcome.kind !== 'created') return outcome;
      for (const t of tasks) engine.events.emit('submitted', pendingRow(t));
      return { kind: 'created', firstIndex: outcome.firstIndex, taskIds: ids };
    },

    async items(parentTaskId, from, limit) {
      const items = await store.listBatchItems(childBatchId(parentTaskId), from, limit);
      return items.map((i) => toChild(i.index, i.task));
    },

    async states(taskIds) {
      const out = new Map<string, ChildItem>();
      const rows = await Promise.all(taskIds.map((id) => store.getTask(id)));
      for (const row of rows) if (row) out.set(row.id, toChild(-1, row));
      return out;
    },

    waitForAny(taskIds, timeoutMs, signal) {
      const wanted = new Set(taskIds);
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          engine.events.off('settled', onSettled);
          signal.removeEventListener('abort', done);
          resolve();
        };
        // Settled in this process: at once; in another one, the caller's next read after the timeout sees it.
        const onSettled = (t: TaskRow) => {
          if (wanted.has(t.id)) done();
        };
        const timer = setTimeout(done, timeoutMs);
        engine.events.on('settled', onSettled);
        signal.addEventListener('abort', done, { once: true });
      });
    },

    async cancel(parentTaskId) {
      const cancelled = await store.cancelBatch(childBatchId(parentTaskId), Date.now());
      for (const t of cancelled) engine.events.emit('settled', t, null);
      return cancelled.length;
    },

    resultsUrl: signResults,
  };
}

function toChild(index: number, t: TaskRow | null): ChildItem {
  if (!t) return { index, taskId: null, status: 'expired', input: null, result: null, error: 'This result is past the retention period.' };
  return {
    index,
    taskId: t.id,
    status: t.status,
    input: t.input,
    result: t.status === 'complete' ? t.result : null,
    error: t.status === 'failed' || t.status === 'cancelled' ? t.error : null,
  };
}
