// Wires x402 into the task service's HTTP app: the payment gate on task creation, wallet sign-in for
// reading and listing tasks, and x402 counters on /metrics.
import type { X402Payments } from '../billing/x402/payments.js';
import type { TaskMetrics } from '../engine/metrics.js';
import type { Runtime } from '../runtime.js';
import type { HttpAppOptions } from './app.js';
import { RateLimiter } from './rate-limit.js';
import { walletReadAuthorizer, walletTaskRoutes } from './routes/wallet-tasks.js';

export function x402HttpOptions(x402: X402Payments, rt: Runtime, metrics: TaskMetrics): Required<Pick<HttpAppOptions, 'paymentGate' | 'readAuthorizers' | 'mounts'>> {
  metrics.addCollector(() => x402.metrics.render());
  const ipLimiter = new RateLimiter(rt.config.http.rateLimitPerIp, rt.config.http.rateLimitWindowS * 1000);
  return {
    paymentGate: x402.gate,
    readAuthorizers: [walletReadAuthorizer(x402)],
    mounts: [{ path: '/v1/tasks', router: walletTaskRoutes({ engine: rt.engine, x402, publicUrl: rt.config.publicUrl, ipLimiter }) }],
  };
}
