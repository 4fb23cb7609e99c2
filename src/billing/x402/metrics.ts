// x402 counters for /metrics (TaskMetrics.addCollector): payments accepted and refused, and how
// settlements ended — settled, unpaid (never collected) or void (task did not complete, not charged).
export type SettlementOutcome = 'settled' | 'unpaid' | 'void';

export class X402Metrics {
  private accepted = 0;
  private readonly refused = new Map<string, number>();
  private readonly outcomes = new Map<SettlementOutcome, number>();
  private retries = 0;
  private unpaidMicros = 0n;
  private transactions = 0;
  private transfersSent = 0;

  paymentAccepted(): void {
    this.accepted++;
  }

  paymentRefused(code: string): void {
    this.refused.set(code, (this.refused.get(code) ?? 0) + 1);
  }

  settlementRetried(): void {
    this.retries++;
  }

  /** The settler account sent a transaction carrying `transfers` transfers (several when sent together). */
  transactionSent(transfers: number): void {
    this.transactions++;
    this.transfersSent += transfers;
  }

  settlementEnded(outcome: SettlementOutcome, amountAtomic: bigint): void {
    this.outcomes.set(outcome, (this.outcomes.get(outcome) ?? 0) + 1);
    if (outcome === 'unpaid') this.unpaidMicros += amountAtomic;
  }

  render(): string {
    const lines = [
      '# HELP agent_utility_x402_payments_accepted_total x402 payments verified and reserved with a task.',
      '# TYPE agent_utility_x402_payments_accepted_total counter',
      `agent_utility_x402_payments_accepted_total ${this.accepted}`,
      '# HELP agent_utility_x402_payments_refused_total x402 payments answered with 402, by reason.',
      '# TYPE agent_utility_x402_payments_refused_total counter',
      ...[...this.refused].map(([code, n]) => `agent_utility_x402_payments_refused_total{code="${code}"} ${n}`),
      '# HELP agent_utility_x402_settlements_total Settlements by outcome: settled, unpaid (gave up), void (task not completed).',
      '# TYPE agent_utility_x402_settlements_total counter',
      ...(['settled', 'unpaid', 'void'] as const).map((o) => `agent_utility_x402_settlements_total{outcome="${o}"} ${this.outcomes.get(o) ?? 0}`),
      '# HELP agent_utility_x402_settlement_retries_total Settlement attempts that failed and were retried.',
      '# TYPE agent_utility_x402_settlement_retries_total counter',
      `agent_utility_x402_settlement_retries_total ${this.retries}`,
      '# HELP agent_utility_x402_transactions_total Transactions the settler account sent (transfers asked for during a send go together).',
      '# TYPE agent_utility_x402_transactions_total counter',
      `agent_utility_x402_transactions_total ${this.transactions}`,
      '# HELP agent_utility_x402_transfers_sent_total Transfers in those transactions (over transactions_total: transfers per transaction).',
      '# TYPE agent_utility_x402_transfers_sent_total counter',
      `agent_utility_x402_transfers_sent_total ${this.transfersSent}`,
      '# HELP agent_utility_x402_unpaid_atomic_total Asset units (USDC: micro-USD) of completed tasks never collected.',
      '# TYPE agent_utility_x402_unpaid_atomic_total counter',
      `agent_utility_x402_unpaid_atomic_total ${this.unpaidMicros}`,
    ];
    return `${lines.join('\n')}\n`;
  }
}
