// OpenAPI paths of webhooks (src/http/routes/webhooks.ts; docs/webhooks.md): the key's signing secret,
// its rotation, and the delivery log of a task or batch.

const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
const keyOnly = [{ apiKey: [] }];

const secret = {
  description: "The key's signing secret.",
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['secret', 'created_at', 'previous_valid_until'],
        properties: {
          secret: { type: 'string', description: 'whsec_ + base64: the Standard Webhooks signing secret.' },
          created_at: { type: 'string', format: 'date-time' },
          previous_valid_until: {
            type: ['string', 'null'],
            format: 'date-time',
            description: 'After a rotation: until when the replaced secret still signs (a second signature).',
          },
        },
      },
    },
  },
};

const deliveries = (idName: string) => ({
  description: 'Every webhook message about it, with each attempt.',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: [idName, 'deliveries'],
        properties: {
          [idName]: { type: 'string' },
          deliveries: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                webhook_id: { type: 'string' },
                type: { type: 'string' },
                url: { type: 'string' },
                status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
                attempts: { type: 'integer' },
                next_attempt_at: { type: ['string', 'null'], format: 'date-time' },
                delivered_at: { type: ['string', 'null'], format: 'date-time' },
                last_error: { type: ['string', 'null'] },
                created_at: { type: 'string', format: 'date-time' },
                log: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: {
                      attempt: { type: 'integer' },
                      started_at: { type: 'string', format: 'date-time' },
                      duration_ms: { type: ['integer', 'null'] },
                      http_status: { type: ['integer', 'null'] },
                      error: { type: ['string', 'null'] },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
});

const logPath = (operationId: string, summary: string, param: string, idName: string) => ({
  get: {
    operationId,
    tags: ['webhooks'],
    summary,
    security: keyOnly,
    parameters: [{ name: param, in: 'path', required: true, schema: { type: 'string' } }],
    responses: {
      '200': deliveries(idName),
      '401': error('No API key (a poll token does not read the log).'),
      '403': error('Created with another credential.'),
      '404': error('Unknown id.'),
    },
  },
});

export const WEBHOOK_PATHS: Record<string, unknown> = {
  '/v1/webhooks/secret': {
    get: {
      operationId: 'get_webhook_secret',
      tags: ['webhooks'],
      summary: "The calling key's webhook signing secret (made on first use)",
      security: keyOnly,
      responses: { '200': secret, '401': error('No API key, or an unknown or revoked one.') },
    },
  },
  '/v1/webhooks/secret/rotate': {
    post: {
      operationId: 'rotate_webhook_secret',
      tags: ['webhooks'],
      summary: 'A new signing secret; the old one keeps signing for WEBHOOK_SECRET_GRACE_HOURS',
      security: keyOnly,
      responses: { '200': secret, '401': error('No API key, or an unknown or revoked one.') },
    },
  },
  '/v1/tasks/{task_id}/webhooks': logPath('get_task_webhooks', "A task's webhook delivery log", 'task_id', 'task_id'),
  '/v1/batches/{batch_id}/webhooks': logPath('get_batch_webhooks', "A batch's webhook delivery log", 'batch_id', 'batch_id'),
};
