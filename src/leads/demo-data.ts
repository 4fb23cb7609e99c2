// The demo directory seeded when no real professionals have been imported. It is generated from a fixed
// seed, so every install has the same pros with the same ids, and it cannot be mistaken for real
// businesses: names end in "(Demo)", phones are in the fictional 555-0100…0199 block, websites and e-mail
// addresses use the reserved .example domain, and every row is flagged is_demo (searches say
// meta.dataset "demo"; requests to demo pros notify nobody).
import { CATEGORY_LABELS, CATEGORY_SLUGS, type Category } from './categories.js';
import { zipCentroid } from './geo.js';
import type { ProInput } from './types.js';

/** A central ZIP and its area code for the largest city of each state, DC, and a few more big metros. */
export const DEMO_METROS: readonly { zip: string; areaCode: string }[] = [
  { zip: '35203', areaCode: '205' },
  { zip: '99501', areaCode: '907' },
  { zip: '85004', areaCode: '602' },
  { zip: '72201', areaCode: '501' },
  { zip: '90012', areaCode: '213' },
  { zip: '80202', areaCode: '303' },
  { zip: '06604', areaCode: '203' },
  { zip: '19801', areaCode: '302' },
  { zip: '20001', areaCode: '202' },
  { zip: '32202', areaCode: '904' },
  { zip: '30303', areaCode: '404' },
  { zip: '96813', areaCode: '808' },
  { zip: '83702', areaCode: '208' },
  { zip: '60601', areaCode: '312' },
  { zip: '46204', areaCode: '317' },
  { zip: '50309', areaCode: '515' },
  { zip: '67202', areaCode: '316' },
  { zip: '40202', areaCode: '502' },
  { zip: '70112', areaCode: '504' },
  { zip: '04101', areaCode: '207' },
  { zip: '21202', areaCode: '410' },
  { zip: '02108', areaCode: '617' },
  { zip: '48226', areaCode: '313' },
  { zip: '55401', areaCode: '612' },
  { zip: '39201', areaCode: '601' },
  { zip: '64106', areaCode: '816' },
  { zip: '59101', areaCode: '406' },
  { zip: '68102', areaCode: '402' },
  { zip: '89101', areaCode: '702' },
  { zip: '03101', areaCode: '603' },
  { zip: '07102', areaCode: '973' },
  { zip: '87102', areaCode: '505' },
  { zip: '10001', areaCode: '212' },
  { zip: '28202', areaCode: '704' },
  { zip: '58102', areaCode: '701' },
  { zip: '43215', areaCode: '614' },
  { zip: '73102', areaCode: '405' },
  { zip: '97204', areaCode: '503' },
  { zip: '19103', areaCode: '215' },
  { zip: '02903', areaCode: '401' },
  { zip: '29401', areaCode: '843' },
  { zip: '57104', areaCode: '605' },
  { zip: '37203', areaCode: '615' },
  { zip: '77002', areaCode: '713' },
  { zip: '84111', areaCode: '801' },
  { zip: '05401', areaCode: '802' },
  { zip: '23451', areaCode: '757' },
  { zip: '98101', areaCode: '206' },
  { zip: '25301', areaCode: '304' },
  { zip: '53202', areaCode: '414' },
  { zip: '82001', areaCode: '307' },
  { zip: '94103', areaCode: '415' },
  { zip: '75201', areaCode: '214' },
  { zip: '92101', areaCode: '619' },
  { zip: '33130', areaCode: '305' },
  { zip: '78205', areaCode: '210' },
];

export const DEMO_PROS_PER_CATEGORY = 3;
/** Demo pros are scattered up to this far from their metro's ZIP centroid. */
export const DEMO_SPREAD_MILES = 12;

const FIRST_WORDS = ['Maple', 'Cedar', 'Summit', 'Harbor', 'Riverside', 'Lakeside', 'Oak Hill', 'Northgate', 'Bluebird', 'Keystone', 'Granite', 'Willow'];
const TRADE_WORDS: Record<Category, string> = {
  plumber: 'Plumbing',
  electrician: 'Electric',
  hvac: 'Heating & Air',
  roofer: 'Roofing',
  landscaper: 'Landscaping',
  handyman: 'Handyman Services',
  house_cleaning: 'Home Cleaning',
  painter: 'Painting',
  pest_control: 'Pest Control',
  locksmith: 'Lock & Key',
};

/** mulberry32: a tiny seeded PRNG, so the dataset is identical on every machine. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const slugify = (s: string) =>
  s
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export function demoPros(): ProInput[] {
  const rand = prng(20240601);
  const out: ProInput[] = [];
  for (const metro of DEMO_METROS) {
    const c = zipCentroid(metro.zip);
    if (!c) continue;
    let phoneSuffix = 0;
    for (const category of CATEGORY_SLUGS) {
      for (let n = 0; n < DEMO_PROS_PER_CATEGORY; n++) {
        const first = FIRST_WORDS[Math.floor(rand() * FIRST_WORDS.length)] ?? 'Maple';
        const name = `${first} ${TRADE_WORDS[category]} (Demo)`;
        const slug = `${slugify(`${first} ${TRADE_WORDS[category]}`)}-${slugify(c.city)}-${n + 1}`;
        // Uniform over a disc: sqrt for the radius, then miles to degrees.
        const dist = DEMO_SPREAD_MILES * Math.sqrt(rand());
        const angle = 2 * Math.PI * rand();
        const lat = c.lat + (dist * Math.cos(angle)) / 69.0;
        const lng = c.lng + (dist * Math.sin(angle)) / (69.0 * Math.cos((c.lat * Math.PI) / 180));
        const suffix = String(phoneSuffix++ % 100).padStart(2, '0');
        out.push({
          externalId: `demo-${metro.zip}-${category}-${n + 1}`,
          name,
          services: [category],
          zip: c.zip,
          lat: Math.round(lat * 1e5) / 1e5,
          lng: Math.round(lng * 1e5) / 1e5,
          phone: `+1${metro.areaCode}55501${suffix}`,
          email: `contact@${slug}.example`,
          webhookUrl: null,
          webhookSecret: null,
          address: `${100 + Math.floor(rand() * 900)} Example Avenue, ${c.city}, ${c.state} ${c.zip}`,
          rating: Math.round((3 + rand() * 2) * 10) / 10,
          reviewCount: Math.floor(rand() * 400),
          website: `https://${slug}.example`,
          description: `Demo listing: a fictional ${CATEGORY_LABELS[category].toLowerCase()} business near ${c.city}, ${c.state}, for trying the API. Not a real business; requests to it reach no one.`,
          isDemo: true,
        });
      }
    }
  }
  return out;
}
