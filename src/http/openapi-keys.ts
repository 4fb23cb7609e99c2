// OpenAPI paths and schemas of self-serve keys paid with x402 (src/http/routes/key-purchases.ts): present
// only when x402 is on, as the routes are.

const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

export const KEYS_TAG = { name: 'keys', description: 'Buy an API key or top one up with an x402 payment; list the keys a wallet bought.' };

const amountBody = {
  required: true,
  content: {
    'application/json': {
      schema: { $ref: '#/components/schemas/KeyPurchaseAmount' },
      example: { usd: '5' },
    },
  },
};

const paymentRequired = {
  description:
    'Pay with x402 v2: the PAYMENT-REQUIRED header (and the body) ask for exactly the amount requested. Also a reused payment (PAYMENT_REPLAYED) or one that was refused.',
  headers: { 'PAYMENT-REQUIRED': { description: 'Base64 JSON payment requirements (x402 v2).', schema: { type: 'string' } } },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
};

const settlementFailed = error(
  'SETTLEMENT_FAILED: the payment could not be settled on chain, so no credit was granted; sign a new payment. PURCHASE_CONFLICT: settled elsewhere.',
);

export const KEY_SCHEMAS: Record<string, unknown> = {
  KeyPurchaseAmount: {
    type: 'object',
    required: ['usd'],
    additionalProperties: false,
    properties: {
      usd: {
        type: 'string',
        pattern: '^\\d{1,9}(\\.\\d{1,6})?$',
        description: 'USD to pay and credit, between X402_KEY_MIN_USD and X402_KEY_MAX_USD (default 1 to 500).',
        examples: ['5'],
      },
    },
  },
  KeyBought: {
    type: 'object',
    required: ['api_key', 'key_id', 'credits_usd', 'payer', 'transaction'],
    properties: {
      api_key: { type: 'string', pattern: '^sk_', description: 'The new key. Shown only in this answer: store it.' },
      key_id: { type: 'string', pattern: '^key_' },
      credits_usd: { type: 'string' },
      payer: { type: 'string', description: 'The wallet that paid (lower case).' },
      transaction: { type: 'string', description: 'Hash of the settlement transaction.' },
    },
  },
  KeyToppedUp: {
    type: 'object',
    required: ['key_id', 'added_usd', 'credits_usd', 'payer', 'transaction'],
    properties: {
      key_id: { type: 'string' },
      added_usd: { type: 'string' },
      credits_usd: { type: 'string', description: 'The balance after the top-up.' },
      payer: { type: 'string' },
      transaction: { type: 'string' },
    },
  },
  KeyPurchases: {
    type: 'object',
    required: ['wallet', 'purchases'],
    properties: {
      wallet: { type: 'string' },
      purchases: {
        type: 'array',
        items: {
          type: 'object',
          required: ['kind', 'key_id', 'usd', 'status', 'created_at'],
          properties: {
            kind: { type: 'string', enum: ['create', 'topup'] },
            key_id: { type: ['string', 'null'], description: "Null while a new key's purchase is not settled." },
            usd: { type: 'string' },
            status: {
              type: 'string',
              enum: ['pending', 'settled', 'unpaid'],
              description: 'pending: settlement under way (or being reconciled after a crash).',
            },
            created_at: { type: 'string', format: 'date-time' },
          },
        },
      },
    },
  },
};

export const KEY_PATHS: Record<string, unknown> = {
  '/v1/keys': {
    post: {
      operationId: 'buy_api_key',
      tags: ['keys'],
      summary: 'Buy a new API key with an x402 payment',
      description: 'Credit is granted only once the payment settled on chain; the answer waits for it. One payment signature buys one key.',
      security: [{ x402: [] }, {}],
      requestBody: amountBody,
      responses: {
        '201': {
          description: 'The new key (shown once) and its credits.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/KeyBought' } } },
        },
        '400': error('usd missing, malformed or out of range.'),
        '402': paymentRequired,
        '415': error('The body is not JSON.'),
        '429': error('Rate limit exceeded.'),
        '503': settlementFailed,
      },
    },
    get: {
      operationId: 'list_bought_keys',
      tags: ['keys'],
      summary: 'The keys a signed-in wallet bought or topped up (purchases, newest first)',
      security: [{ siwx: [] }],
      responses: {
        '200': { description: 'The wallet and its purchases.', content: { 'application/json': { schema: { $ref: '#/components/schemas/KeyPurchases' } } } },
        '401': error('No SIGN-IN-WITH-X header, or a sign-in that is forged, expired, for another service or already used.'),
        '429': error('Rate limit exceeded.'),
      },
    },
  },
  '/v1/keys/current/credits': {
    post: {
      operationId: 'top_up_api_key',
      tags: ['keys'],
      summary: 'Top up the Bearer API key with an x402 payment',
      description: 'The key goes in Authorization: Bearer, the payment in PAYMENT-SIGNATURE. Credit is granted once the payment settled.',
      security: [{ apiKey: [], x402: [] }, { apiKey: [] }],
      requestBody: amountBody,
      responses: {
        '200': {
          description: 'The amount added and the new balance.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/KeyToppedUp' } } },
        },
        '400': error('usd missing, malformed or out of range.'),
        '401': error('No API key, or an unknown or revoked one.'),
        '402': paymentRequired,
        '415': error('The body is not JSON.'),
        '429': error('Rate limit exceeded.'),
        '503': settlementFailed,
      },
    },
  },
};
