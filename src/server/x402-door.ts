// Wires x402 into the task service's HTTP app: the payment gate on task creation, wallet sign-in for
// reading and listing tasks (GET /v1/tasks, mounted by the app), and x402 counters on /metrics.
import type { X402Payments } from '../billing/x402/payments.js';
import type { TaskMetrics } from '../engine/metrics.js';
import type { Runtime } from '../runtime.js';
import type { HttpAppOptions } from '../http/app.js';
import { walletReadAuthorizer } from '../http/routes/wallet-tasks.js';

export function x402HttpOptions(
  x402: X402Payments,
  _rt: Runtime,
  metrics: TaskMetrics,
): Required<Pick<HttpAppOptions, 'paymentGate' | 'readAuthorizers' | 'mounts' | 'x402'>> {
  metrics.addCollector(() => x402.metrics.render());
  return { paymentGate: x402.gate, readAuthorizers: [walletReadAuthorizer(x402)], mounts: [], x402 };
}
