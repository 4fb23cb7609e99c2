// OpenAPI 3.1, generated from the registry: every tool's input and result schema, the security schemes
// and every documented response. Nothing here is written by hand per tool.
import { priceText, type ToolRegistry } from '../registry/registry.js';
import { BATCH_PATHS, BATCH_SCHEMAS } from './openapi-batches.js';
import { WEBHOOK_PATHS } from './openapi-webhooks.js';
import { KEY_PATHS, KEY_SCHEMAS, KEYS_TAG } from './openapi-keys.js';

const ERROR_SCHEMA = {
  type: 'object',
  required: ['error', 'code', 'retry'],
  properties: {
    error: { type: 'string', description: 'A sentence a person can act on.' },
    code: { type: 'string', description: 'Stable machine-readable code, e.g. INVALID_INPUT.' },
    field: { type: 'string', description: 'The input field at fault, when there is one.' },
    retry: { type: 'boolean', description: 'Whether repeating the same request later may succeed.' },
  },
};

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

const RATE_HEADERS = {
  'RateLimit-Limit': { schema: { type: 'integer' } },
  'RateLimit-Remaining': { schema: { type: 'integer' } },
  'RateLimit-Reset': { schema: { type: 'integer' } },
};

const rateLimited = {
  ...errorResponse('Rate limit exceeded; retry after Retry-After seconds.'),
  headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } }, ...RATE_HEADERS },
};

/** x402 payment kept on a task (src/billing/x402/payment-record.ts). */
const PAYMENT_SCHEMA = {
  type: 'object',
  description: 'The x402 payment behind the task: who paid, how much, and where its settlement stands.',
  required: ['status', 'scheme', 'network', 'asset', 'pay_to', 'payer', 'amount', 'amount_usd', 'transaction'],
  properties: {
    status: {
      type: 'string',
      enum: ['pending', 'settled', 'unpaid', 'void'],
      description:
        'pending: authorized, waiting for the task; settled: transferred; unpaid: settlement gave up; void: the task did not complete, nothing charged.',
    },
    scheme: { type: 'string', enum: ['exact'] },
    x402_version: { type: 'integer', enum: [1, 2] },
    network: { type: 'string', description: 'CAIP-2 network, e.g. eip155:8453.' },
    asset: { type: 'string', description: 'Token contract address.' },
    pay_to: { type: 'string' },
    payer: { type: 'string', description: 'Wallet address that signed the payment.' },
    amount: { type: 'string', description: 'Atomic units of the asset (USDC: micro-USD).' },
    amount_usd: { type: 'string' },
    valid_before: { type: 'string' },
    transaction: { type: ['string', 'null'], description: 'Settlement transaction hash, once submitted.' },
    settled_at: { type: 'string', format: 'date-time' },
    reason: { type: 'string', description: 'Why the payment ended unpaid or void.' },
    settle_attempts: { type: 'integer' },
    last_error: { type: 'string' },
    resource_url: { type: 'string' },
    max_timeout_seconds: { type: 'integer' },
    authorization: { type: 'object', description: 'The signed EIP-3009 authorization.' },
    signature: { type: 'string' },
  },
};

const TASKS_TAG = { name: 'tasks', description: 'Read, wait for and cancel the asynchronous tasks that tool calls create.' };
const BATCHES_TAG = {
  name: 'batches',
  description: 'One tool over many inputs: create a batch, follow its progress, read its results in input order, cancel it.',
};
const WEBHOOKS_TAG = {
  name: 'webhooks',
  description: "Signed callbacks when work is done: the key's signing secret, its rotation, delivery logs (docs/webhooks.md).",
};
const DISCOVERY_TAG = { name: 'discovery', description: 'Tool descriptors, service metadata, the A2A agent card and health.' };

/** One tag per tool family (the part before the dot), described by the titles of its tools. */
function toolTags(registry: ToolRegistry): { name: string; description: string }[] {
  const families = new Map<string, string[]>();
  for (const t of registry.list()) {
    const family = t.name.split('.')[0]!;
    families.set(family, [...(families.get(family) ?? []), `${t.name} (${t.title})`]);
  }
  return [...families].map(([name, titles]) => ({ name, description: `Tools: ${titles.join('; ')}.` }));
}

export function schemaName(tool: string, suffix: 'Input' | 'Result'): string {
  return `${tool
    .split(/[._]/)
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join('')}${suffix}`;
}

/** Moves nested $defs into components so $refs resolve inside one document. */
function hoist(schema: Record<string, unknown>, prefix: string, components: Record<string, unknown>): Record<string, unknown> {
  const defs = schema.$defs as Record<string, unknown> | undefined;
  if (!defs) return schema;
  const { $defs: _drop, ...rest } = schema;
  const rename = (s: unknown): unknown => {
    if (Array.isArray(s)) return s.map(rename);
    if (s && typeof s === 'object') {
      return Object.fromEntries(
        Object.entries(s as Record<string, unknown>).map(([k, v]) => [
          k,
          k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/') ? `#/components/schemas/${prefix}${v.slice(8)}` : rename(v),
        ]),
      );
    }
    return s;
  };
  for (const [k, v] of Object.entries(defs)) components[`${prefix}${k}`] = rename(v);
  return rename(rest) as Record<string, unknown>;
}

export function buildOpenApi(registry: ToolRegistry, opts: { publicUrl: string; version: string; x402: boolean }): Record<string, unknown> {
  const schemas: Record<string, unknown> = {
    Error: ERROR_SCHEMA,
    Payment: PAYMENT_SCHEMA,
    TaskCreated: {
      type: 'object',
      required: ['task_id', 'poll_token', 'status', 'poll_url'],
      properties: {
        task_id: { type: 'string', pattern: '^task_', examples: ['task_0k2m4abcdxyz'] },
        poll_token: { type: 'string', pattern: '^pt_', description: 'JWT valid 24 hours for this task only.' },
        status: { type: 'string', enum: ['pending', 'running', 'complete', 'failed', 'cancelled'] },
        poll_url: { type: 'string', description: 'Relative path: GET it with the poll token.' },
        price_usd: { type: 'string' },
      },
    },
  };
  const requestBodies: Record<string, unknown> = {};
  const resultRefs: { $ref: string }[] = [];
  const paths: Record<string, unknown> = {};

  for (const tool of registry.list()) {
    const d = registry.descriptor(tool.name);
    const inName = schemaName(tool.name, 'Input');
    const outName = schemaName(tool.name, 'Result');
    // Request bodies carry the *input* schema (a field with a default is optional for the caller) and live
    // under requestBodies, where generators such as openapi-typescript read defaults as optional; results
    // carry the *output* schema (a defaulted field is always present).
    requestBodies[inName] = {
      description: `${tool.title}: the tool's input. \`webhook_url\` and \`webhook_events\` may be added beside it (docs/webhooks.md).`,
      required: true,
      content: { 'application/json': { schema: hoist(d.input_schema, inName, schemas), example: tool.example } },
    };
    schemas[outName] = hoist(d.output_schema, outName, schemas);
    resultRefs.push({ $ref: `#/components/schemas/${outName}` });
    paths[`/v1/tools/${tool.name}/tasks`] = {
      post: {
        operationId: `create_${tool.name.replace(/\./g, '_')}_task`,
        summary: `${tool.title} (${priceText(tool)})`,
        description: `${tool.description}\n\nCreates an asynchronous task; poll GET /v1/tasks/{task_id} with the poll token. The result has the ${outName} shape.`,
        tags: [tool.name.split('.')[0]],
        security: [{ apiKey: [] }, ...(opts.x402 ? [{ x402: [] }] : [])],
        parameters: [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            schema: { type: 'string', maxLength: 255 },
            description: 'Same key and body within 24 hours returns the same task and charges once.',
          },
        ],
        requestBody: { $ref: `#/components/requestBodies/${inName}` },
        responses: {
          '202': {
            description: 'Task accepted.',
            headers: { Location: { schema: { type: 'string' } }, ...RATE_HEADERS },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/TaskCreated' } } },
          },
          '400': errorResponse('Invalid input; `field` names the field.'),
          '401': errorResponse('Unknown, revoked or malformed credential.'),
          '402': errorResponse('Payment required (no credential, not enough credits, or an x402 payment that was refused).'),
          '403': errorResponse('Target blocked by the network guard.'),
          '404': errorResponse('Unknown tool.'),
          '413': errorResponse('Body too large.'),
          '415': errorResponse('Body is not JSON.'),
          '422': errorResponse('Idempotency-Key reused with a different body.'),
          '429': rateLimited,
        },
      },
    };
  }

  schemas.Task = {
    type: 'object',
    required: ['task_id', 'status', 'tool', 'result', 'error'],
    properties: {
      task_id: { type: 'string' },
      status: { type: 'string', enum: ['pending', 'running', 'complete', 'failed', 'cancelled'] },
      tool: { type: 'string' },
      result: { description: 'The tool result when status is complete, else null.', anyOf: [...resultRefs, { type: 'null' }] },
      error: { type: ['string', 'null'], description: 'Why the task failed or was cancelled.' },
      error_code: {
        type: 'string',
        description:
          'Present on some failed tasks: a stable code for the failure. BLOCKED_BY_SITE: the site answered with a bot wall (a challenge, captcha or block page) instead of the page; the task is refunded and `error` lists the signals seen.',
      },
      created_at: { type: 'string', format: 'date-time' },
      started_at: { type: ['string', 'null'], format: 'date-time' },
      finished_at: { type: ['string', 'null'], format: 'date-time' },
      attempts: { type: 'integer' },
      price_usd: { type: 'string' },
      cancel_requested: { type: 'boolean', const: true, description: 'Present while a running task has been asked to stop and has not stopped yet.' },
      result_omitted: {
        type: 'boolean',
        const: true,
        description: 'In GET /v1/tasks only: the result did not fit the page (about 1 MB of results per page); read it with GET /v1/tasks/{id}.',
      },
      payment: { $ref: '#/components/schemas/Payment' },
    },
  };

  const taskIdParam = { name: 'task_id', in: 'path', required: true, schema: { type: 'string' } };
  paths['/v1/tasks/{task_id}'] = {
    get: {
      operationId: 'get_task',
      summary: 'Read a task (optionally wait for it to settle)',
      tags: ['tasks'],
      security: [{ pollToken: [] }, { apiKey: [] }],
      parameters: [
        taskIdParam,
        {
          name: 'wait',
          in: 'query',
          required: false,
          schema: { type: 'number', minimum: 0, maximum: 30 },
          description: 'Seconds to wait for the task to settle before answering.',
        },
      ],
      responses: {
        '200': { description: 'The task.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Task' } } } },
        '400': errorResponse('Invalid wait.'),
        '401': errorResponse('Missing, expired, tampered or malformed token.'),
        '403': errorResponse('A token for another task.'),
        '404': errorResponse('Unknown task.'),
        '429': rateLimited,
      },
    },
  };
  const rangeParam = (name: string, schema: Record<string, unknown>, description: string) => ({ name, in: 'query', required: false, schema, description });
  paths['/v1/tasks/{task_id}/result'] = {
    get: {
      operationId: 'get_task_result',
      summary: "Read one part of a finished task's result (free: read from the stored task, nothing renders again)",
      description:
        'For the text tools (browser.content, browser.markdown, browser.links, browser.scrape) the part of the text from offset, at most max_chars characters, with total_chars, truncated, next_offset and approx_tokens. Other results come whole.',
      tags: ['tasks'],
      security: [{ pollToken: [] }, { apiKey: [] }],
      parameters: [
        taskIdParam,
        rangeParam('offset', { type: 'integer', minimum: 0 }, "Character to start at (a next_offset); default the task input's offset, else 0."),
        rangeParam(
          'max_chars',
          { type: 'integer', minimum: 100, maximum: 20_000_000 },
          "Most characters of text; default the task input's max_chars, else 1000000.",
        ),
        rangeParam('chunks', { type: 'string', enum: ['true', 'false'] }, 'browser.markdown: list the sections of the part.'),
      ],
      responses: {
        '200': { description: 'The result (one part of it for a text tool).', content: { 'application/json': { schema: { type: 'object' } } } },
        '400': errorResponse('Invalid offset, max_chars or chunks.'),
        '401': errorResponse('Missing, expired, tampered or malformed token.'),
        '403': errorResponse('A token for another task.'),
        '404': errorResponse('Unknown task.'),
        '409': errorResponse('The task is not complete (yet).'),
        '429': rateLimited,
      },
    },
  };
  paths['/v1/tasks/{task_id}/cancel'] = {
    post: {
      operationId: 'cancel_task',
      summary: 'Cancel a task (pending tasks are cancelled and refunded at once; running ones are asked to stop)',
      tags: ['tasks'],
      security: [{ pollToken: [] }, { apiKey: [] }],
      parameters: [taskIdParam],
      responses: {
        '200': {
          description: 'The task after the request: cancelled (it was pending), or unchanged when it had already finished.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Task' } } },
        },
        '202': {
          description:
            'The task is running and its worker was asked to stop: status "running" with cancel_requested true. Poll until it is "cancelled" (refunded).',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Task' } } },
        },
        '401': errorResponse('Missing or invalid token.'),
        '403': errorResponse('A token for another task.'),
        '404': errorResponse('Unknown task.'),
        '429': rateLimited,
      },
    },
  };
  if (opts.x402) {
    // Wallet identity (x402 sign-in-with-x): list the tasks a wallet paid for; read them without poll tokens.
    for (const p of [paths['/v1/tasks/{task_id}'], paths['/v1/tasks/{task_id}/result'], paths['/v1/tasks/{task_id}/cancel']]) {
      for (const op of Object.values(p as Record<string, { security: unknown[] }>)) op.security.push({ siwx: [] });
    }
  }
  const dateTime = (description: string) => ({ type: 'string', format: 'date-time', description });
  paths['/v1/tasks'] = {
    get: {
      operationId: 'list_tasks',
      summary: opts.x402
        ? 'List the tasks an API key created (or a signed-in wallet paid for), newest first'
        : 'List the tasks an API key created, newest first',
      tags: ['tasks'],
      security: [...(opts.x402 ? [{ siwx: [] }] : []), { apiKey: [] }],
      parameters: [
        { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
        { name: 'status', in: 'query', required: false, schema: { type: 'string', enum: ['pending', 'running', 'complete', 'failed', 'cancelled'] } },
        { name: 'tool', in: 'query', required: false, schema: { type: 'string', enum: registry.names } },
        { name: 'since', in: 'query', required: false, schema: dateTime('Only tasks created at or after this time.') },
        { name: 'cursor', in: 'query', required: false, schema: { type: 'string' }, description: 'next_cursor of the previous page.' },
        {
          name: 'before',
          in: 'query',
          required: false,
          schema: { type: 'string', format: 'date-time' },
          description: 'next_before of the previous page (next_cursor is exact when tasks share a millisecond).',
        },
      ],
      responses: {
        '200': {
          description: 'The tasks.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['tasks', 'count', 'next_cursor', 'next_before'],
                properties: {
                  wallet: { type: 'string', description: 'The signed-in wallet, when listing by wallet.' },
                  tasks: { type: 'array', items: { $ref: '#/components/schemas/Task' } },
                  count: { type: 'integer' },
                  next_cursor: { type: ['string', 'null'], description: 'Pass as cursor for the next page; null on the last page.' },
                  next_before: { type: ['string', 'null'], format: 'date-time' },
                },
              },
            },
          },
        },
        '400': errorResponse('Invalid limit, status, tool, since, cursor or before.'),
        '401': errorResponse(
          opts.x402
            ? 'An unknown or revoked key, or a sign-in that is forged, expired, for another service or already used.'
            : 'No API key, or an unknown or revoked one.',
        ),
        ...(opts.x402 ? { '402': errorResponse('No credential: PAYMENT-REQUIRED carries a sign-in-with-x challenge to sign.') } : {}),
        '429': rateLimited,
      },
    },
  };
  const usageTotals = {
    type: 'object',
    properties: {
      tasks: { type: 'integer' },
      failed: { type: 'integer' },
      cancelled: { type: 'integer' },
      spent_usd: { type: 'string', description: 'Charged for these tasks.' },
      refunded_usd: { type: 'string', description: "Given back for failures that were not the input's fault, and for cancellations." },
      net_usd: { type: 'string' },
    },
  };
  paths['/v1/usage'] = {
    get: {
      operationId: 'get_usage',
      tags: ['tasks'],
      summary: "The calling API key's tasks, spend, refunds and failures by tool or by UTC day",
      description: 'Counts the tasks still kept (see RETENTION); the balance is always exact.',
      security: [{ apiKey: [] }],
      parameters: [
        { name: 'from', in: 'query', required: false, schema: dateTime('Start (inclusive); a date means its UTC midnight. Default: 30 days before to.') },
        { name: 'to', in: 'query', required: false, schema: dateTime('End (exclusive). Default: now. At most 366 days after from.') },
        { name: 'group', in: 'query', required: false, schema: { type: 'string', enum: ['tool', 'day'], default: 'tool' } },
      ],
      responses: {
        '200': {
          description: 'Usage rows (one per tool or per day with tasks) and their total.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['key_id', 'from', 'to', 'group', 'balance_usd', 'rows', 'total'],
                properties: {
                  key_id: { type: 'string' },
                  from: { type: 'string', format: 'date-time' },
                  to: { type: 'string', format: 'date-time' },
                  group: { type: 'string', enum: ['tool', 'day'] },
                  balance_usd: { type: 'string' },
                  rows: {
                    type: 'array',
                    items: { ...usageTotals, properties: { tool: { type: 'string' }, day: { type: 'string', format: 'date' }, ...usageTotals.properties } },
                  },
                  total: usageTotals,
                },
              },
            },
          },
        },
        '400': errorResponse('Invalid from, to or group.'),
        '401': errorResponse('No API key, or an unknown or revoked one.'),
        '429': rateLimited,
      },
    },
  };
  const json = (description: string) => ({ description, content: { 'application/json': { schema: { type: 'object' } } } });
  // Discovery is public (no credential); under /v1 it still counts against the per-address rate limit (see
  // below). A request it cannot serve as sent is a 4XX with our error body.
  const notServed = errorResponse('The request could not be served as sent.');
  const discovery = (operationId: string, summary: string, responses: Record<string, unknown>) => ({
    get: { operationId, summary, tags: ['discovery'], security: [], responses: { ...responses, '4XX': notServed } },
  });
  paths['/v1/tools'] = discovery('list_tools', 'List tools with prices and schemas', { '200': json('Tool descriptors.') });
  paths['/v1/tools/{tool}'] = {
    get: {
      ...discovery('get_tool', 'One tool descriptor', {}).get,
      parameters: [{ name: 'tool', in: 'path', required: true, schema: { type: 'string', enum: registry.names } }],
      responses: { '200': json('Tool descriptor.'), '404': errorResponse('Unknown tool.') },
    },
  };
  paths['/.well-known/agent-service.json'] = discovery('service_metadata', 'Service metadata: endpoints, authentication, tools', {
    '200': json('Service metadata.'),
  });
  paths['/.well-known/agent-card.json'] = discovery('agent_card', 'A2A agent card (a skill per tool)', { '200': json('A2A agent card.') });
  paths['/.well-known/agent.json'] = discovery('agent_card_legacy', 'A2A agent card at its pre-1.0 path (same document)', { '200': json('A2A agent card.') });
  paths['/healthz'] = discovery('health', 'Health of the service and its store', { '200': json('Healthy.'), '503': json('Unhealthy.') });
  Object.assign(paths, BATCH_PATHS);
  Object.assign(paths, WEBHOOK_PATHS);
  Object.assign(schemas, BATCH_SCHEMAS);
  if (opts.x402) {
    Object.assign(paths, KEY_PATHS);
    Object.assign(schemas, KEY_SCHEMAS);
  }
  // Every /v1 route counts against the per-address limit (http/app.ts), discovery included: each
  // operation documents its 429.
  for (const [path, item] of Object.entries(paths)) {
    if (!path.startsWith('/v1/')) continue;
    for (const op of Object.values(item as Record<string, { responses?: Record<string, unknown> }>)) {
      if (op.responses && !op.responses['429']) op.responses['429'] = rateLimited;
    }
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'agent-utility',
      version: opts.version,
      description: 'Small, dependable utility tools for AI agents. Every tool runs as an asynchronous task: create it, then poll it with the poll token.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: opts.publicUrl }],
    tags: [...toolTags(registry), TASKS_TAG, BATCHES_TAG, WEBHOOKS_TAG, ...(opts.x402 ? [KEYS_TAG] : []), DISCOVERY_TAG],
    paths,
    components: {
      schemas,
      requestBodies,
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'Prepaid API key, sk_live_…' },
        pollToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Poll token pt_… returned at task creation.' },
        ...(opts.x402
          ? {
              x402: { type: 'apiKey', in: 'header', name: 'PAYMENT-SIGNATURE', description: 'x402 v2 payment payload (base64).' },
              siwx: {
                type: 'apiKey',
                in: 'header',
                name: 'SIGN-IN-WITH-X',
                description: 'Signed sign-in-with-x (SIWE) payload (base64) for a challenge from a 402 answer; single use.',
              },
            }
          : {}),
      },
    },
  };
}
