// ip.geolocate: where an IP address is and who runs its network, from open data shipped with the service
// (DB-IP City Lite, RouteViews/NRO/DB-IP ASN data): no account, no network access. A private, loopback or
// otherwise non-public address is a complete result naming its range, not an error.
import { isIP } from 'node:net';
import { z } from 'zod';
import { ToolError } from '../src/errors.js';
import { defineTool } from '../src/registry/define-tool.js';
import { lazyModule } from '../src/registry/lazy-module.js';

// The MaxMind reader and time-zone data: loaded with the first lookup, not when the tool is listed.
const geolocationModule = lazyModule(() => import('../src/geo/ip/ip-geolocation-service.js'));

export const ipGeolocateInput = z.strictObject({
  ip: z
    .string({ error: (issue) => (issue.input === undefined ? 'is required: an IPv4 or IPv6 address, e.g. 8.8.8.8' : 'must be a string') })
    .trim()
    .max(64, 'is too long for an IP address')
    .refine((v) => isIP(v) !== 0 && !v.includes('%'), { message: 'must be an IPv4 or IPv6 address, e.g. 8.8.8.8 or 2001:4860:4860::8888' })
    .describe('IPv4 or IPv6.'),
});

const str = z.string().nullable();
const sourceOutput = z.object({
  name: z.string(),
  build_date: z.string().nullable().describe('Date the data was published (YYYY-MM-DD).'),
  licence: z.string(),
  url: z.string(),
});

export const ipGeolocateOutput = z.object({
  ip: z.string(),
  city: str,
  region: str.describe('Region (state, province) full name.'),
  region_code: str.describe('ISO 3166-2 subdivision code without the country prefix, e.g. CA; only when exactly known.'),
  country: str.describe('Country name in English.'),
  country_code: str.describe('ISO 3166-1 alpha-2.'),
  zip: str.describe('Postal code; the default DB-IP Lite data has none.'),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  timezone: str.describe('IANA time zone.'),
  isp: str,
  organization: str,
  as: str.describe('AS number and name, e.g. "AS15169 Google LLC".'),
  asn: z.int().nullable(),
  is_mobile: z.boolean().describe('Heuristic: the network operator looks like a cellular carrier.'),
  is_proxy: z.boolean().describe('In the operator-supplied proxy list (PROXY_LIST_FILE); false without one.'),
  is_hosting: z.boolean().describe('Heuristic: hosting, cloud or CDN network.'),
  network: str.describe('The network (CIDR) the location answer covers, or the special range.'),
  accuracy_radius_km: z.number().nullable().describe('When the database has one (MaxMind files).'),
  reserved_range: str.describe('Set for non-public addresses: private, loopback, link_local, documentation, reserved, …'),
  message: str.describe('Why location fields are null, when they are.'),
  source: sourceOutput.describe('Location data source.'),
  asn_source: sourceOutput.describe('AS data source.'),
});

export default defineTool({
  name: 'ip.geolocate',
  title: 'IP geolocation',
  description:
    'City-level location, time zone and AS of an IP address (VPN and mobile can mislead; is_hosting/is_mobile are heuristics). ' +
    'Non-public addresses: null location and reserved_range. Data: DB-IP Lite, RouteViews/NRO, CC BY 4.0.',
  input: ipGeolocateInput,
  output: ipGeolocateOutput,
  price: '0.001',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  // The first task after a fresh install may build the ASN index (a few seconds).
  timeoutMs: 60_000,
  concurrency: 64,
  example: { ip: '8.8.8.8' },
  attribution:
    'IP geolocation by DB-IP (https://db-ip.com), CC BY 4.0. AS data from RouteViews (https://www.routeviews.org), ' +
    'NRO (https://www.nro.net) and DB-IP, CC BY 4.0, via ip-location-db.',

  async run(ctx, input) {
    ctx.signal.throwIfAborted();
    const geolocator = await ctx.use((await geolocationModule()).ipGeolocationService);
    const result = await geolocator.geolocate(input.ip);
    // The schema only lets IP addresses through, so this is a fault of ours, not of the input.
    if (!result) throw new ToolError(`Could not parse ${JSON.stringify(input.ip)} as an IP address.`, 'permanent');
    return result;
  },
});
