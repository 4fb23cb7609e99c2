// Sign-In-With-X (CAIP-122; SIWE/EIP-4361 message for EVM wallets): the challenge carried in 402
// answers under extensions["sign-in-with-x"], and the check of a signed SIGN-IN-WITH-X header. A valid
// sign-in proves control of a wallet; it only ever lets that wallet read and list the tasks it paid
// for, and never pays for anything.
//
// Nonces are issued statelessly (random part + HMAC over issuedAt and expirationTime, so a challenge
// cannot be forged or stretched) and recorded as used when a sign-in succeeds, so each signed message
// works exactly once.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createSiweMessage, getAddress, isAddress, verifyMessage, type Address, type Hex } from './viem.js';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import type { TaskStore } from '../../store/port.js';
import { chainIdOf } from './tokens.js';
import { decodeBase64Json } from './wire.js';

export const SIGN_IN_WITH_X = 'sign-in-with-x';
export const SIGN_IN_STATEMENT = 'Sign in to read and list the agent-utility tasks this wallet paid for. This does not pay for anything.';

/** How long a challenge may be used after it was issued. */
const TTL_MS = 5 * 60_000;
/** Clock difference tolerated between us and the signer. */
const SKEW_MS = 60_000;

export interface SignInChallenge {
  info: {
    domain: string;
    uri: string;
    version: '1';
    nonce: string;
    issuedAt: string;
    expirationTime: string;
    statement: string;
    resources: string[];
  };
  supportedChains: { chainId: string; type: 'eip191' }[];
  schema: Record<string, unknown>;
}

const payloadSchema = z.object({
  domain: z.string(),
  address: z.string(),
  statement: z.string().optional(),
  uri: z.string(),
  version: z.string(),
  chainId: z.string(),
  type: z.string(),
  nonce: z.string(),
  issuedAt: z.string(),
  expirationTime: z.string().optional(),
  notBefore: z.string().optional(),
  requestId: z.string().optional(),
  resources: z.array(z.string()).optional(),
  signatureScheme: z.string().optional(),
  signature: z.string().regex(/^0x([0-9a-fA-F]{2})+$/),
});

/** JSON Schema of the SIGN-IN-WITH-X payload, as x402's sign-in-with-x extension declares it. */
const PAYLOAD_JSON_SCHEMA: Record<string, unknown> = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    domain: { type: 'string' },
    address: { type: 'string' },
    statement: { type: 'string' },
    uri: { type: 'string', format: 'uri' },
    version: { type: 'string' },
    chainId: { type: 'string' },
    type: { type: 'string' },
    nonce: { type: 'string' },
    issuedAt: { type: 'string', format: 'date-time' },
    expirationTime: { type: 'string', format: 'date-time' },
    notBefore: { type: 'string', format: 'date-time' },
    requestId: { type: 'string' },
    resources: { type: 'array', items: { type: 'string', format: 'uri' } },
    signature: { type: 'string' },
  },
  required: ['domain', 'address', 'uri', 'version', 'chainId', 'type', 'nonce', 'issuedAt', 'signature'],
};

/** A refused sign-in: 401 with a reason the client can act on (x402's invalid_siwx_* code in `reason`). */
export class SignInRefused extends AppError {
  constructor(message: string, reason: string) {
    super(401, 'SIGN_IN_REFUSED', message, { extra: { reason }, headers: { 'WWW-Authenticate': 'SIWX' } });
  }
}

export interface WalletSignInOptions {
  secret: string;
  publicUrl: string;
  network: string;
  store: Pick<TaskStore, 'useSignInNonce'>;
  /** ERC-1271 / ERC-6492 check for smart wallets, used when ECDSA recovery does not match. */
  verifyOnChain?: (address: Address, message: string, signature: Hex) => Promise<boolean>;
}

export class WalletSignIn {
  private readonly origin: URL;

  constructor(private readonly o: WalletSignInOptions) {
    this.origin = new URL(o.publicUrl);
  }

  /** A fresh challenge for a 402 answer about `resourceUrl`. */
  challenge(resourceUrl: string, now = Date.now()): SignInChallenge {
    const issuedAt = new Date(now).toISOString();
    const expirationTime = new Date(now + TTL_MS).toISOString();
    const random = randomBytes(12).toString('hex');
    return {
      info: {
        domain: this.origin.host,
        uri: resourceUrl,
        version: '1',
        nonce: random + this.tag(random, issuedAt, expirationTime),
        issuedAt,
        expirationTime,
        statement: SIGN_IN_STATEMENT,
        resources: [resourceUrl],
      },
      supportedChains: [{ chainId: this.o.network, type: 'eip191' }],
      schema: PAYLOAD_JSON_SCHEMA,
    };
  }

  private tag(random: string, issuedAt: string, expirationTime: string): string {
    return createHmac('sha256', this.o.secret).update(`siwx\n${random}\n${issuedAt}\n${expirationTime}`).digest('hex').slice(0, 24);
  }

  /** Checks a SIGN-IN-WITH-X header and spends its nonce; returns the wallet, or throws SignInRefused. */
  async verify(header: string, now = Date.now()): Promise<Address> {
    let raw: unknown;
    try {
      raw = decodeBase64Json(header);
    } catch {
      throw new SignInRefused('SIGN-IN-WITH-X must be base64-encoded JSON of the signed sign-in payload.', 'invalid_siwx_payload');
    }
    const parsed = payloadSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new SignInRefused(
        `SIGN-IN-WITH-X payload is malformed: ${issue?.path.join('.') || '(root)'} ${issue?.message ?? ''}`.trim(),
        'invalid_siwx_payload',
      );
    }
    const p = parsed.data;
    if (p.domain !== this.origin.host) {
      throw new SignInRefused(
        `The sign-in is for domain "${p.domain}"; this service is "${this.origin.host}". Sign a challenge from this service.`,
        'invalid_siwx_domain_mismatch',
      );
    }
    let uriOrigin: string;
    try {
      uriOrigin = new URL(p.uri).origin;
    } catch {
      uriOrigin = '';
    }
    if (uriOrigin !== this.origin.origin) {
      throw new SignInRefused(`The sign-in uri must be on ${this.origin.origin}.`, 'invalid_siwx_uri_mismatch');
    }
    if (p.chainId !== this.o.network || p.type !== 'eip191') {
      throw new SignInRefused(`Sign in on ${this.o.network} with an EVM wallet (type eip191).`, 'invalid_siwx_chain_id');
    }
    if (!isAddress(p.address, { strict: false })) throw new SignInRefused('address is not an EVM address.', 'invalid_siwx_payload');

    const expirationTime = p.expirationTime ?? '';
    const random = p.nonce.slice(0, 24);
    const expected = Buffer.from(this.tag(random, p.issuedAt, expirationTime));
    const given = Buffer.from(p.nonce.slice(24));
    if (p.nonce.length !== 48 || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new SignInRefused(
        'The nonce, issuedAt or expirationTime do not match a challenge this service issued; copy them from a fresh 402 challenge.',
        'invalid_siwx_nonce',
      );
    }
    const issued = Date.parse(p.issuedAt);
    const expires = Date.parse(expirationTime);
    if (issued > now + SKEW_MS) throw new SignInRefused('issuedAt is in the future.', 'invalid_siwx_issued_at_in_future');
    if (now > expires || now - issued > TTL_MS + SKEW_MS) {
      throw new SignInRefused('This sign-in challenge expired; request a new one (any 402 answer carries one) and sign again.', 'invalid_siwx_expired');
    }
    if (p.notBefore && Date.parse(p.notBefore) > now + SKEW_MS) throw new SignInRefused('notBefore is in the future.', 'invalid_siwx_not_yet_valid');

    let message: string;
    try {
      message = createSiweMessage({
        domain: p.domain,
        // As signed: EIP-4361 wants the checksummed form, and viem refuses anything else.
        address: p.address as Address,
        ...(p.statement !== undefined ? { statement: p.statement } : {}),
        uri: p.uri,
        version: '1',
        chainId: chainIdOf(p.chainId),
        nonce: p.nonce,
        issuedAt: new Date(issued),
        expirationTime: new Date(expires),
        ...(p.notBefore ? { notBefore: new Date(p.notBefore) } : {}),
        ...(p.requestId ? { requestId: p.requestId } : {}),
        ...(p.resources ? { resources: p.resources } : {}),
      });
    } catch (err) {
      throw new SignInRefused(`The sign-in fields do not form a valid SIWE message: ${(err as Error).message.split('\n')[0]}`, 'invalid_siwx_payload');
    }
    const address = getAddress(p.address);
    const signature = p.signature as Hex;
    let valid = await verifyMessage({ address, message, signature }).catch(() => false);
    if (!valid && this.o.verifyOnChain) valid = await this.o.verifyOnChain(address, message, signature).catch(() => false);
    if (!valid) throw new SignInRefused('The sign-in signature does not match the address and message.', 'invalid_siwx_signature');

    // Spent only once the signature is good, so nobody can burn another wallet's challenge.
    if (!(await this.o.store.useSignInNonce(p.nonce, now, now - TTL_MS - 2 * SKEW_MS))) {
      throw new SignInRefused('This signed sign-in was already used; each one works once. Sign a new challenge.', 'invalid_siwx_nonce_reused');
    }
    return address;
  }
}
