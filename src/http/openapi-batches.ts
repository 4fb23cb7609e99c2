// OpenAPI paths and schemas of batches (src/http/routes/batches.ts). One path for every tool: each input
// follows that tool's input schema (components/schemas/<Tool>Input), listed per tool under /tasks.

const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
const batchIdParam = { name: 'batch_id', in: 'path', required: true, schema: { type: 'string' } };
const batchJson = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Batch' } } } });
const readSecurity = [{ pollToken: [] }, { apiKey: [] }];

export const BATCH_SCHEMAS: Record<string, unknown> = {
  BatchCreated: {
    type: 'object',
    required: ['batch_id', 'poll_token', 'status', 'poll_url', 'total', 'unique', 'price_usd'],
    properties: {
      batch_id: { type: 'string' },
      poll_token: { type: 'string', description: 'Reads this batch (and its results) without the API key, 24 hours.' },
      status: { type: 'string', enum: ['pending'] },
      poll_url: { type: 'string' },
      total: { type: 'integer', description: 'Inputs in the call.' },
      unique: { type: 'integer', description: 'Distinct inputs: identical inputs run once and are charged once.' },
      price_usd: { type: 'string', description: 'unique × the tool price, charged to the key at creation.' },
    },
  },
  Batch: {
    type: 'object',
    required: ['batch_id', 'tool', 'status', 'total', 'unique', 'counts', 'progress', 'price_usd', 'created_at'],
    properties: {
      batch_id: { type: 'string' },
      tool: { type: 'string' },
      status: {
        type: 'string',
        enum: ['pending', 'running', 'complete', 'cancelled'],
        description: '"complete" once every item settled (some may have failed).',
      },
      total: { type: 'integer' },
      unique: { type: 'integer' },
      counts: {
        type: 'object',
        description: 'Items by status (duplicates count once per input position).',
        properties: Object.fromEntries(['pending', 'running', 'complete', 'failed', 'cancelled'].map((s) => [s, { type: 'integer' }])),
      },
      progress: { type: 'number', minimum: 0, maximum: 1 },
      price_usd: { type: 'string' },
      created_at: { type: 'string', format: 'date-time' },
      results_url: {
        type: 'string',
        description: 'When done: JSONL results, a read-only signed link (works without credentials for 24 hours; it cannot cancel).',
      },
      results_urls: { type: 'object', properties: { jsonl: { type: 'string' }, csv: { type: 'string' } } },
      cancelled_now: { type: 'integer', description: 'Cancel only: items that had not started and were cancelled and refunded.' },
    },
  },
};

export const BATCH_PATHS: Record<string, unknown> = {
  '/v1/tools/{tool}/batches': {
    post: {
      operationId: 'create_batch',
      summary: 'Run one tool over many inputs (up to BATCH_MAX_ITEMS, 10,000 by default)',
      description:
        'Every input is validated first: if any is invalid, 400 lists the first 20 (row, field, problem) and nothing is charged. ' +
        'Identical inputs run once and are charged once. Paid with an API key only: the total is charged at creation and items that fail ' +
        'through no fault of their input are refunded as they fail. CSV: a header row of input field names (dotted for nested fields); cells are text.',
      tags: ['batches'],
      security: [{ apiKey: [] }],
      parameters: [{ name: 'tool', in: 'path', required: true, schema: { type: 'string' } }],
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: { type: 'object', required: ['inputs'], properties: { inputs: { type: 'array', items: { type: 'object' } } } } },
          'application/x-ndjson': { schema: { type: 'string', description: 'One input object per line.' } },
          'text/csv': { schema: { type: 'string', description: 'Header row of field names, one input per row.' } },
        },
      },
      responses: {
        '202': { description: 'Batch accepted.', content: { 'application/json': { schema: { $ref: '#/components/schemas/BatchCreated' } } } },
        '400': error('Invalid inputs: `errors` lists the first 20 rows with row, field and problem; nothing was charged.'),
        '401': error('Unknown, revoked or malformed credential.'),
        '402': error('No API key (BATCH_NEEDS_API_KEY: x402 cannot refund failed items) or not enough credits.'),
        '404': error('Unknown tool.'),
        '413': error('Body too large (BATCH_BODY_LIMIT_BYTES).'),
        '415': error('Body is not JSON, NDJSON or CSV.'),
        '429': error('Rate limit exceeded.'),
      },
    },
  },
  '/v1/batches/{batch_id}': {
    get: {
      operationId: 'get_batch',
      summary: 'Read a batch: counts by status, progress, and results_url when done',
      tags: ['batches'],
      security: readSecurity,
      parameters: [batchIdParam, { name: 'wait', in: 'query', required: false, schema: { type: 'number', minimum: 0, maximum: 30 } }],
      responses: {
        '200': batchJson('The batch.'),
        '401': error('Missing or invalid token.'),
        '403': error('Another credential.'),
        '404': error('Unknown batch.'),
        '429': error('Rate limit exceeded.'),
      },
    },
  },
  '/v1/batches/{batch_id}/results': {
    get: {
      operationId: 'get_batch_results',
      summary:
        'One page of results in input order (JSONL or CSV), at most `limit` lines and about 8 MB of results; X-Next-Cursor and Link rel="next" point at the next page',
      tags: ['batches'],
      security: readSecurity,
      parameters: [
        batchIdParam,
        { name: 'format', in: 'query', schema: { type: 'string', enum: ['jsonl', 'csv'], default: 'jsonl' } },
        { name: 'cursor', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 }, description: 'Input position to start from.' },
        { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 1000 } },
        { name: 'expires', in: 'query', schema: { type: 'string' }, description: 'Of results_url: the read-only link expiry (unix seconds).' },
        { name: 'sig', in: 'query', schema: { type: 'string' }, description: 'Of results_url: the read-only link signature.' },
        {
          name: 'token',
          in: 'query',
          schema: { type: 'string' },
          description: 'The poll token (links made before results_url was signed); prefer results_url or the Authorization header.',
        },
      ],
      responses: {
        '200': {
          description: 'Lines {index, task_id, status, result, error}; CSV columns index,task_id,status,error,result (result as JSON).',
          content: { 'application/x-ndjson': { schema: { type: 'string' } }, 'text/csv': { schema: { type: 'string' } } },
        },
        '400': error('Invalid format, cursor or limit.'),
        '401': error('Missing or invalid token.'),
        '403': error('A results link whose signature does not match, or another credential’s batch.'),
        '404': error('Unknown batch.'),
        '410': error('An expired results link.'),
        '429': error('Rate limit exceeded.'),
      },
    },
  },
  '/v1/batches/{batch_id}/cancel': {
    post: {
      operationId: 'cancel_batch',
      summary: 'Cancel what has not run (refunded at once); running items are asked to stop',
      tags: ['batches'],
      security: readSecurity,
      parameters: [batchIdParam],
      responses: {
        '200': batchJson('The batch after the request, with cancelled_now.'),
        '401': error('Missing or invalid token.'),
        '404': error('Unknown batch.'),
        '429': error('Rate limit exceeded.'),
      },
    },
  },
};
