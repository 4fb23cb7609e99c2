// How a request without an API key can still pay: a payment gate (x402) answers 402 with its
// requirements and verifies a payment header. The REST front door only calls this interface.
import type { AnyTool } from '../registry/define-tool.js';
import type { Payer } from '../store/port.js';

export interface VerifiedPayment {
  payer: Payer;
  /** Reserved atomically with the task so one signature yields one task. */
  nonce: { network: string; asset: string; payer: string; nonce: string };
  /** Kept on the task (shown as `payment` on the task object). */
  payment: Record<string, unknown>;
}

export interface PaymentGate {
  /** Header names that carry a payment for this gate (lower case). */
  readonly headerNames: readonly string[];
  /** The 402 answer's extra headers and body fields for this tool. */
  requirements(tool: AnyTool, resourceUrl: string): { headers: Record<string, string>; body: Record<string, unknown> };
  /** Verifies the payment; throws PaymentRequired with an actionable reason when it is not acceptable. */
  verify(tool: AnyTool, headers: Record<string, string | undefined>, resourceUrl: string): Promise<VerifiedPayment>;
}
