// Heuristics for ip.geolocate's is_hosting and is_mobile, from the AS number and the organisation name.
// They are documented as heuristics: the open ASN data says who announces a range, not how it is used.
//
// is_hosting: a curated table of cloud, CDN and hosting ASNs (our own list; each entry carries a fragment
// of the organisation name the shipped data gives it, and a test checks that they still agree) plus
// organisation-name keywords.
// is_mobile: organisation-name keywords for cellular operators, minus phrases that name something else.
// "Wireless" alone is not a keyword: in the data it mostly names fixed-wireless ISPs (WISPs).

export interface HostingAsn {
  asn: number;
  /** A fragment of the organisation name in @ip-location-db/asn, to catch a table that went stale. */
  org: string;
}

export const HOSTING_ASNS: readonly HostingAsn[] = [
  { asn: 16509, org: 'Amazon' },
  { asn: 14618, org: 'Amazon' },
  { asn: 8987, org: 'Amazon' },
  { asn: 15169, org: 'Google' },
  { asn: 396982, org: 'Google' },
  { asn: 19527, org: 'Google' },
  { asn: 36040, org: 'Google' },
  { asn: 8075, org: 'Microsoft' },
  { asn: 8068, org: 'Microsoft' },
  { asn: 13335, org: 'Cloudflare' },
  { asn: 209242, org: 'Cloudflare' },
  { asn: 14061, org: 'DigitalOcean' },
  { asn: 16276, org: 'OVH' },
  { asn: 35540, org: 'OVH' },
  { asn: 24940, org: 'Hetzner' },
  { asn: 63949, org: 'Akamai' },
  { asn: 20940, org: 'Akamai' },
  { asn: 16625, org: 'Akamai' },
  { asn: 20473, org: 'Constant Company' },
  { asn: 31898, org: 'Oracle' },
  { asn: 45102, org: 'Alibaba' },
  { asn: 37963, org: 'Alibaba' },
  { asn: 132203, org: 'Tencent' },
  { asn: 45090, org: 'Tencent' },
  { asn: 36351, org: 'IBM' },
  { asn: 19994, org: 'Rackspace' },
  { asn: 27357, org: 'Rackspace' },
  { asn: 60781, org: 'LeaseWeb' },
  { asn: 28753, org: 'Leaseweb' },
  { asn: 16265, org: 'LeaseWeb' },
  { asn: 30633, org: 'Leaseweb' },
  { asn: 7203, org: 'Leaseweb' },
  { asn: 51167, org: 'Contabo' },
  { asn: 12876, org: 'Scaleway' },
  { asn: 54113, org: 'Fastly' },
  { asn: 26496, org: 'GoDaddy' },
  { asn: 47583, org: 'Hostinger' },
  { asn: 22612, org: 'Namecheap' },
  { asn: 8560, org: 'IONOS' },
  { asn: 6724, org: 'Strato' },
  { asn: 54825, org: 'Packet Host' },
  { asn: 40676, org: 'Psychz' },
  { asn: 36352, org: 'HostPapa' },
  { asn: 8100, org: 'QuadraNet' },
  { asn: 9009, org: 'M247' },
  { asn: 60068, org: 'Datacamp' },
  { asn: 212238, org: 'Datacamp' },
  { asn: 21859, org: 'Zenlayer' },
  { asn: 36007, org: 'Kamatera' },
  { asn: 46606, org: 'Unified Layer' },
  { asn: 32244, org: 'Liquid Web' },
  { asn: 25820, org: 'IT7' },
  { asn: 42473, org: 'Anexia' },
  { asn: 210644, org: 'AEZA' },
  { asn: 29802, org: 'HIVELOCITY' },
  { asn: 53667, org: 'FranTech' },
  { asn: 397423, org: 'Tier.Net' },
  { asn: 203020, org: 'HostRoyale' },
  { asn: 207990, org: 'HostRoyale' },
  { asn: 199524, org: 'G-Core' },
  { asn: 62240, org: 'Clouvider' },
  { asn: 135377, org: 'UCLOUD' },
];

const hostingAsnSet = new Set(HOSTING_ASNS.map((h) => h.asn));

const HOSTING_KEYWORDS = [
  /\bhost(s|ed|ing)?\b/,
  /hosting/,
  /webhost/,
  /\bdata ?cent(er|re)s?\b/,
  /\bcolo(cation)?\b/,
  /\bcloud\b/,
  /\bvps\b/,
  /\bvds\b/,
  /\bdedicated\b/,
  /\bservers?\b/,
];

const MOBILE_KEYWORDS = [/\bmobile\b/, /\bmobil\b/, /\bmobility\b/, /\bcellular\b/, /\bcellco\b/, /\bgsm\b/, /\blte\b/, /\bmovil(es)?\b/, /\bmovel\b/];

/** Phrases that contain a mobile keyword but name something other than a cellular network. */
const MOBILE_EXCLUSIONS = [
  /\bfixed (wireless|mobile)\b/,
  /\bmobile (health ?care|health|medical|apps?|banking|payments?|homes?|software|games?)\b/,
  /\bautomobile/,
];

const orgCache = new Map<string, { hosting: boolean; mobile: boolean }>();

function foldOrg(org: string): string {
  return org.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

function classifyOrg(org: string): { hosting: boolean; mobile: boolean } {
  let c = orgCache.get(org);
  if (!c) {
    const folded = foldOrg(org);
    const mobile = MOBILE_KEYWORDS.some((k) => k.test(folded)) && !MOBILE_EXCLUSIONS.some((k) => k.test(folded));
    c = { hosting: HOSTING_KEYWORDS.some((k) => k.test(folded)), mobile };
    if (orgCache.size < 100_000) orgCache.set(org, c);
  }
  return c;
}

export function isHostingNetwork(asn: number | null, org: string | null): boolean {
  if (asn !== null && hostingAsnSet.has(asn)) return true;
  return org ? classifyOrg(org).hosting : false;
}

export function isMobileNetwork(org: string | null): boolean {
  return org ? classifyOrg(org).mobile : false;
}
