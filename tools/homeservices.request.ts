import { z } from 'zod';
import { InvalidInput, ToolError } from '../src/errors.js';
import { defineTool } from '../src/registry/define-tool.js';
import { AGENT_CONSENT_TEXT, leadsClientService } from '../src/leads/client.js';
import { lazyModule } from '../src/registry/lazy-module.js';

// libphonenumber-js's metadata: loaded with the first request, not when the tool is listed.
const phoneModule = lazyModule(() => import('../src/leads/phone.js'));

const input = z.strictObject({
  pro_id: z.string().min(1).max(64).describe('id from homeservices.search'),
  // No description on requester: the name says whose details these are.
  requester: z.strictObject({
    name: z.string().trim().min(1).max(200),
    phone: z.string().trim().min(3).max(40).describe('US 10-digit, or +country code'),
    email: z.email().max(254).optional(),
  }),
  notes: z.string().trim().min(1).max(5000).describe('job description for the pro'),
});

const output = z.object({
  request_id: z.string().describe('req_…'),
  pro_id: z.string(),
  pro_name: z.string(),
  status: z.literal('sent'),
  message: z.string(),
});

export default defineTool({
  name: 'homeservices.request',
  title: 'Request a home-service professional',
  description:
    "Sends a request to a pro from homeservices.search, who gets the requester's name, phone, e-mail and notes " +
    'and contacts them. Call it only once the person agreed to be contacted by this pro (consent is recorded). ' +
    'The same phone, pro and service within 24 h returns the earlier request. Demo pros are never contacted.',
  input,
  output,
  price: '0.01',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  timeoutMs: 20_000,
  concurrency: 16,
  // Never re-run by the engine: a second run could notify the pro twice (the idempotency key guards too).
  sideEffects: true,
  example: {
    pro_id: 'pro_exampleexampleexa',
    requester: { name: 'Sam Lee', phone: '(201) 555-0123' },
    notes: 'Kitchen sink faucet drips constantly; available weekday mornings.',
  },
  async precheck(_ctx, args) {
    const { toE164 } = await phoneModule();
    if (!toE164(args.requester.phone)) {
      throw new InvalidInput('requester.phone: not a valid phone number (US numbers need 10 digits; others need a +country code).', 'requester.phone');
    }
  },
  async run(ctx, args) {
    const client = await ctx.use(leadsClientService);
    const r = await client.submitRequest(
      {
        pro_id: args.pro_id,
        name: args.requester.name,
        phone: args.requester.phone,
        ...(args.requester.email !== undefined ? { email: args.requester.email } : {}),
        notes: args.notes,
        consent_text: AGENT_CONSENT_TEXT,
      },
      // Stable for the task across attempts and restarts: the lead service returns the first request again.
      { idempotencyKey: ctx.idempotencyKey, signal: ctx.signal },
    );
    if (typeof r.request_id !== 'string' || typeof r.pro_name !== 'string') {
      throw new ToolError('The lead service accepted the request but answered without a request id.', 'transient');
    }
    return { request_id: r.request_id, pro_id: r.pro_id, pro_name: r.pro_name, status: 'sent' as const, message: r.message };
  },
});
