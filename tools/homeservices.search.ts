import { z } from 'zod';
import { defineTool } from '../src/registry/define-tool.js';
import { resolveCategory } from '../src/leads/categories.js';
import { leadsClientService } from '../src/leads/client.js';
import { requireZip } from '../src/leads/geo.js';

const input = z.strictObject({
  service: z
    .string()
    .min(1)
    .max(100)
    .describe('plumber, electrician, hvac, roofer, landscaper, handyman, house_cleaning, painter, pest_control, locksmith, or a synonym ("ac repair")'),
  zip: z
    .string()
    // No description: the pattern says five digits.
    .regex(/^\d{5}$/, 'must be exactly five digits'),
  number_of_results: z.number().int().min(1).max(100).default(25),
});

const output = z.object({
  pros: z
    .array(
      z.object({
        id: z.string().describe('pass to homeservices.request'),
        name: z.string(),
        phone: z.string().nullable().describe('E.164'),
        rating: z.number().nullable().describe('0 to 5'),
        review_count: z.number().int().nullable(),
        address: z.string().nullable(),
        website: z.string().nullable(),
        description: z.string().nullable(),
        distance_miles: z.number().describe('from the ZIP, 0.1 mile'),
      }),
    )
    .describe('nearest first within 25 miles; ties by rating'),
});

export default defineTool({
  name: 'homeservices.search',
  title: 'Find home-service professionals',
  description:
    'Home-service pros of one trade within 25 miles of a US ZIP, nearest first, then best rated; pass an id to homeservices.request. ' +
    '"(Demo)" names are not real businesses.',
  input,
  output,
  price: '0.002',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  timeoutMs: 30_000,
  concurrency: 32,
  example: { service: 'plumber', zip: '10001', number_of_results: 5 },
  async precheck(_ctx, args) {
    // Refused before anyone is charged: an unknown service (the error lists the supported ones) or ZIP.
    resolveCategory(args.service);
    requireZip(args.zip);
  },
  async run(ctx, args) {
    const client = await ctx.use(leadsClientService);
    const { results } = await client.search({ service: args.service, zip: args.zip, limit: args.number_of_results }, ctx.signal);
    return {
      pros: results.map((r) => ({
        id: r.id,
        name: r.name,
        phone: r.phone,
        rating: r.rating,
        review_count: r.review_count,
        address: r.address,
        website: r.website,
        description: r.description,
        distance_miles: r.distance_miles,
      })),
    };
  },
});
