// A client of an x402 facilitator (X402_FACILITATOR_URL): POST /verify before accepting a payment and
// POST /settle once the task completed, with the request and response shapes of the x402 v2 spec.
import type { Authorization, PaymentRequirements, ResourceInfo } from './wire.js';

export interface FacilitatorPayment {
  x402Version: 1 | 2;
  authorization: Authorization;
  signature: string;
  requirements: PaymentRequirements;
  resource: ResourceInfo;
}

export interface VerifyAnswer {
  isValid: boolean;
  invalidReason?: string;
  invalidMessage?: string;
  payer?: string;
}

export interface SettleAnswer {
  success: boolean;
  transaction?: string;
  network?: string;
  payer?: string;
  errorReason?: string;
  errorMessage?: string;
}

export class FacilitatorClient {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs = 30_000,
  ) {}

  verify(p: FacilitatorPayment): Promise<VerifyAnswer> {
    return this.post<VerifyAnswer>('verify', p, (d) => typeof d.isValid === 'boolean');
  }

  settle(p: FacilitatorPayment): Promise<SettleAnswer> {
    return this.post<SettleAnswer>('settle', p, (d) => typeof d.success === 'boolean');
  }

  private async post<T>(op: 'verify' | 'settle', p: FacilitatorPayment, valid: (d: Record<string, unknown>) => boolean): Promise<T> {
    const paymentPayload =
      p.x402Version === 2
        ? { x402Version: 2, resource: p.resource, accepted: p.requirements, payload: { authorization: p.authorization, signature: p.signature } }
        : { x402Version: 1, scheme: 'exact', network: p.requirements.network, payload: { authorization: p.authorization, signature: p.signature } };
    const res = await fetch(`${this.baseUrl.replace(/\/+$/, '')}/${op}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ x402Version: p.x402Version, paymentPayload, paymentRequirements: p.requirements }),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await res.text();
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new Error(`facilitator /${op} answered ${res.status} with non-JSON`);
    }
    // A facilitator may answer a refusal with 400 and the usual body; anything else is a fault.
    if (data && typeof data === 'object' && valid(data as Record<string, unknown>)) return data as T;
    throw new Error(`facilitator /${op} answered ${res.status}: ${text.slice(0, 200)}`);
  }
}
