// The 402 answer: x402 v2 PaymentRequired (in the PAYMENT-REQUIRED header and merged into the body),
// with the exact-scheme requirement derived from the tool's price, the Bazaar discovery extension
// (the tool's input and output schemas) and a fresh sign-in-with-x challenge.
import type { AnyTool } from '../../registry/define-tool.js';
import { jsonSchemaOf, usdToMicros } from '../../registry/registry.js';
import { maxTimeoutSeconds, type X402Settings } from './settings.js';
import { HEADER, encodeBase64Json, type PaymentRequired, type PaymentRequirements } from './wire.js';

/** Resource descriptions are echoed by clients into their payment header: keep them short. */
const MAX_DESCRIPTION = 300;

export function requirementFor(tool: AnyTool, s: X402Settings): PaymentRequirements {
  return {
    scheme: 'exact',
    network: s.network,
    asset: s.token.address,
    // micro-USD and USDC atomic units are the same thing (6 decimals).
    amount: (BigInt(usdToMicros(tool.price)) * 10n ** BigInt(s.token.decimals - 6)).toString(),
    payTo: s.payTo,
    maxTimeoutSeconds: maxTimeoutSeconds(tool.timeoutMs, s),
    extra: { name: s.token.name, version: s.token.version },
  };
}

export function describeResource(tool: AnyTool): string {
  const text = `${tool.title}: ${tool.description}`.replace(/\s+/g, ' ').trim();
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}

const bazaarCache = new WeakMap<AnyTool, Record<string, unknown>>();

/**
 * Bazaar discovery: how to call the resource (POST, JSON body of the tool's input schema) and what it
 * answers (the task creation response), plus the schema of the task's `result` once it completes.
 */
export function bazaarExtension(tool: AnyTool): Record<string, unknown> {
  let ext = bazaarCache.get(tool);
  if (ext) return ext;
  const created = {
    type: 'object',
    properties: {
      task_id: { type: 'string' },
      poll_token: { type: 'string' },
      status: { type: 'string' },
      poll_url: { type: 'string' },
      price_usd: { type: 'string' },
    },
    required: ['task_id', 'poll_token', 'status', 'poll_url'],
  };
  ext = {
    info: {
      input: { type: 'http', method: 'POST', bodyType: 'json', body: tool.example },
      output: {
        type: 'json',
        example: { task_id: 'task_…', poll_token: 'pt_…', status: 'pending', poll_url: '/v1/tasks/task_…', price_usd: tool.price },
      },
    },
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        input: {
          type: 'object',
          properties: {
            type: { type: 'string', const: 'http' },
            method: { type: 'string', enum: ['POST'] },
            bodyType: { type: 'string', enum: ['json'] },
            body: jsonSchemaOf(tool.input, 'input'),
          },
          required: ['type', 'method', 'bodyType', 'body'],
          additionalProperties: false,
        },
        output: {
          type: 'object',
          properties: {
            type: { type: 'string' },
            example: created,
            result: {
              ...(withoutDescriptions(jsonSchemaOf(tool.output, 'output')) as Record<string, unknown>),
              description: 'GET poll_url (Bearer poll_token) until status is complete; result then has this shape.',
            },
          },
          required: ['type'],
        },
      },
      required: ['input'],
    },
  };
  bazaarCache.set(tool, ext);
  return ext;
}

/**
 * The result's shape without its field descriptions: the whole extension rides in the PAYMENT-REQUIRED
 * header (and is echoed in PAYMENT-SIGNATURE), which must stay within what HTTP servers accept; the
 * descriptions are in /v1/tools and OpenAPI. Property names called "description" are kept.
 */
function withoutDescriptions(schema: unknown, isProperties = false): unknown {
  if (Array.isArray(schema)) return schema.map((s) => withoutDescriptions(s));
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => isProperties || key !== 'description')
      .map(([key, value]) => [key, withoutDescriptions(value, !isProperties && key === 'properties')]),
  );
}

export function paymentRequiredFor(
  tool: AnyTool,
  resourceUrl: string,
  s: X402Settings,
  extensions: Record<string, unknown>,
  error = 'Payment required',
): PaymentRequired {
  return {
    x402Version: 2,
    error,
    resource: { url: resourceUrl, description: describeResource(tool), mimeType: 'application/json' },
    accepts: [requirementFor(tool, s)],
    extensions: { bazaar: bazaarExtension(tool), ...extensions },
  };
}

/**
 * The PAYMENT-REQUIRED header plus the same object for the JSON body. The body's `error` is the service's
 * own sentence, so x402's `error` (a reason code) is left to the header there.
 */
export function paymentRequiredAnswer(pr: PaymentRequired): { headers: Record<string, string>; body: Record<string, unknown> } {
  const { error: _reasonCode, ...rest } = pr;
  return { headers: { [HEADER.paymentRequired]: encodeBase64Json(pr), 'Cache-Control': 'no-store' }, body: rest };
}
