// What the x402 gate needs to know, resolved once at startup from Config (see payments.ts).
import type { Address } from './viem.js';
import type { TokenInfo } from './tokens.js';

export interface X402Timing {
  /** Time a paid task may wait in the queue before it starts. */
  queueAllowanceSeconds: number;
  /** Time after the tool's own budget during which settlement is tried (and retried). */
  settleAllowanceSeconds: number;
  /** Least settlement time a signature must leave after the tool's budget to be accepted. */
  minSettleSeconds: number;
}

export const DEFAULT_TIMING: X402Timing = { queueAllowanceSeconds: 300, settleAllowanceSeconds: 600, minSettleSeconds: 60 };

export interface X402Settings {
  payTo: Address;
  network: string;
  chainId: number;
  token: TokenInfo;
  publicUrl: string;
  /** TASK_MAX_ATTEMPTS: a task may run this many times before it completes. */
  maxAttempts: number;
  timing: X402Timing;
  /** Who verifies on chain and submits the transfer. */
  mode: 'self' | 'facilitator';
}

/** Engine backoff between attempts is capped at 30 s (run-attempt.ts). */
const MAX_BACKOFF_SECONDS = 30;

/** Seconds one task of a tool can take from start to its last attempt, retries included. */
export function runBudgetSeconds(timeoutMs: number, maxAttempts: number): number {
  return Math.ceil(timeoutMs / 1000) * maxAttempts + MAX_BACKOFF_SECONDS * (maxAttempts - 1);
}

/** The validity window offered in the 402 (the official client signs validBefore = now + this). */
export function maxTimeoutSeconds(timeoutMs: number, s: X402Settings): number {
  return s.timing.queueAllowanceSeconds + runBudgetSeconds(timeoutMs, s.maxAttempts) + s.timing.settleAllowanceSeconds;
}

/** The shortest window accepted: enough to run the tool and still settle. */
export function minWindowSeconds(timeoutMs: number, s: X402Settings): number {
  return runBudgetSeconds(timeoutMs, s.maxAttempts) + s.timing.minSettleSeconds;
}
