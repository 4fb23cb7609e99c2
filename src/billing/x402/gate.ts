// The PaymentGate the REST front door calls: 402 requirements for a tool, and verification of the
// PAYMENT-SIGNATURE (v2) or X-PAYMENT (v1) header into the payer, the nonce to reserve with the task,
// and the payment record kept on it.
import { PaymentRequired } from '../../errors.js';
import type { AnyTool } from '../../registry/define-tool.js';
import type { PaymentGate, VerifiedPayment } from '../payment-gate.js';
import type { X402Metrics } from './metrics.js';
import { paymentRequiredAnswer, paymentRequiredFor } from './requirements.js';
import type { X402Settings } from './settings.js';
import { SIGN_IN_WITH_X, type WalletSignIn } from './siwx.js';
import { PaymentRefusal, verifyPayment, type VerifierDeps } from './verify.js';

export class X402Gate implements PaymentGate {
  readonly headerNames = ['payment-signature', 'x-payment'] as const;

  constructor(
    private readonly deps: VerifierDeps & { settings: X402Settings },
    private readonly signIn: WalletSignIn,
    private readonly metrics: X402Metrics,
  ) {}

  requirements(tool: AnyTool, resourceUrl: string, error?: string): { headers: Record<string, string>; body: Record<string, unknown> } {
    const pr = paymentRequiredFor(tool, resourceUrl, this.deps.settings, { [SIGN_IN_WITH_X]: this.signIn.challenge(resourceUrl) }, error);
    return paymentRequiredAnswer(pr);
  }

  async verify(tool: AnyTool, headers: Record<string, string | undefined>, resourceUrl: string): Promise<VerifiedPayment> {
    const header = headers['payment-signature'] ?? headers['x-payment'] ?? '';
    try {
      const record = await verifyPayment(tool, header, resourceUrl, this.deps);
      this.metrics.paymentAccepted();
      return {
        payer: { kind: 'x402', id: record.payer },
        nonce: { network: record.network, asset: record.asset, payer: record.payer, nonce: record.authorization.nonce },
        payment: record as unknown as Record<string, unknown>,
      };
    } catch (err) {
      if (!(err instanceof PaymentRefusal)) throw err;
      this.metrics.paymentRefused(err.code);
      // The refusal carries fresh requirements, so a client can sign again straight away.
      const answer = this.requirements(tool, resourceUrl, err.reason);
      throw new PaymentRequired(err.message, err.code, { reason: err.reason, price_usd: tool.price, ...answer.body }, answer.headers);
    }
  }
}
