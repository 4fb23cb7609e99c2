// The settlement sweep drains every payment left pending, page after page, in one pass: one page per
// sweep interval capped a cluster whose workers run no settlement at 100 payments per 15 s. Failed
// tasks are used (their payments become `void` with no chain involved), over a store that pages as the
// real one does (oldest first, continuing after a cursor).
import { describe, expect, it } from 'vitest';
import type { X402Settings } from '../../src/billing/x402/settings.js';
import { X402Metrics } from '../../src/billing/x402/metrics.js';
import { Settler } from '../../src/billing/x402/settlement.js';
import { EngineEvents } from '../../src/engine/events.js';
import { createLogger } from '../../src/logger.js';
import type { TaskStore, UnsettledCursor, UnsettledTask } from '../../src/store/port.js';

const TASKS = 250; // two and a half pages

function failedPaidTask(i: number): UnsettledTask {
  return {
    id: `task_${String(i).padStart(4, '0')}`,
    status: 'failed',
    payer: { kind: 'x402', id: '0xpayer' },
    finishedAt: 1_000 + Math.floor(i / 3), // ties on finished_at across page ends
    payment: {
      status: 'pending',
      scheme: 'exact',
      amount: '10',
      payer: '0xpayer',
      valid_before: new Date(Date.now() + 600_000).toISOString(),
      authorization: {},
    },
  } as unknown as UnsettledTask;
}

function pagingStore(tasks: UnsettledTask[]) {
  const reads: number[] = [];
  const store = {
    async listUnsettledPayments(finishedBefore: number, limit: number, after?: UnsettledCursor) {
      const page = tasks
        .filter((t) => (t.payment as { status: string }).status === 'pending' && t.finishedAt! < finishedBefore)
        .sort((a, b) => a.finishedAt! - b.finishedAt! || a.id.localeCompare(b.id))
        .filter((t) => !after || t.finishedAt! > after.finishedAt || (t.finishedAt === after.finishedAt && t.id > after.id))
        .slice(0, limit);
      reads.push(page.length);
      return page;
    },
    async updatePendingPayment(id: string, payment: Record<string, unknown>) {
      const t = tasks.find((t) => t.id === id)!;
      if ((t.payment as { status: string }).status !== 'pending') return false;
      t.payment = payment;
      return true;
    },
    // One process: it holds the settlement lease.
    async holdLease() {
      return true;
    },
    async releaseLease() {},
  };
  return { store: store as unknown as TaskStore, reads };
}

describe('x402 settlement sweep', () => {
  it('drains more than one page of pending payments in a single sweep', async () => {
    const tasks = Array.from({ length: TASKS }, (_, i) => failedPaidTask(i));
    const { store, reads } = pagingStore(tasks);
    const settler = new Settler(
      { store, events: new EngineEvents(), log: createLogger('silent'), metrics: new X402Metrics(), settings: {} as X402Settings },
      { sweepIntervalMs: 600_000, sweepGraceMs: 0 },
    );
    settler.start();
    try {
      const deadline = Date.now() + 5_000;
      while (tasks.some((t) => (t.payment as { status: string }).status === 'pending') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(tasks.filter((t) => (t.payment as { status: string }).status === 'void')).toHaveLength(TASKS);
      expect(reads).toEqual([100, 100, 50]);
    } finally {
      await settler.stop();
    }
  });
});
