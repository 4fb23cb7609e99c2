// The ten service categories the lead service knows, and the everyday words people use for them.
// Matching is on normalised words so "AC repair", "a/c-repair" and "ac_repair" all land on hvac.
import { InvalidInput } from '../errors.js';

export const CATEGORY_SLUGS = [
  'plumber',
  'electrician',
  'hvac',
  'roofer',
  'landscaper',
  'handyman',
  'house_cleaning',
  'painter',
  'pest_control',
  'locksmith',
] as const;

export type Category = (typeof CATEGORY_SLUGS)[number];

export const CATEGORY_LABELS: Record<Category, string> = {
  plumber: 'Plumber',
  electrician: 'Electrician',
  hvac: 'Heating and air conditioning',
  roofer: 'Roofer',
  landscaper: 'Landscaper',
  handyman: 'Handyman',
  house_cleaning: 'House cleaning',
  painter: 'Painter',
  pest_control: 'Pest control',
  locksmith: 'Locksmith',
};

export const CATEGORY_SYNONYMS: Record<Category, readonly string[]> = {
  plumber: [
    'plumbing',
    'plumbers',
    'leaky faucet',
    'leaking faucet',
    'dripping faucet',
    'clogged drain',
    'drain cleaning',
    'water heater',
    'burst pipe',
    'leaking pipe',
    'toilet repair',
    'sewer',
  ],
  electrician: [
    'electrical',
    'electricians',
    'electric',
    'wiring',
    'rewiring',
    'outlet repair',
    'breaker',
    'circuit breaker',
    'light fixture',
    'panel upgrade',
    'ev charger',
  ],
  hvac: [
    'ac repair',
    'a c repair',
    'air conditioning',
    'air conditioner',
    'ac',
    'heating',
    'furnace',
    'furnace repair',
    'heat pump',
    'heating and cooling',
    'hvac repair',
    'boiler',
  ],
  roofer: ['roofing', 'roofers', 'roof', 'roof repair', 'roof leak', 'leaking roof', 'gutters', 'shingles'],
  landscaper: ['landscaping', 'landscapers', 'lawn care', 'lawn mowing', 'gardener', 'gardening', 'yard work', 'tree trimming', 'sprinkler repair'],
  handyman: ['handymen', 'odd jobs', 'home repair', 'general repair', 'furniture assembly', 'drywall repair', 'tv mounting'],
  house_cleaning: [
    'cleaning',
    'house cleaner',
    'house cleaners',
    'cleaner',
    'maid',
    'maid service',
    'housekeeping',
    'home cleaning',
    'deep cleaning',
    'move out cleaning',
  ],
  painter: ['painting', 'painters', 'house painter', 'house painting', 'interior painting', 'exterior painting'],
  pest_control: [
    'pest',
    'exterminator',
    'exterminators',
    'termites',
    'termite',
    'bed bugs',
    'rodent control',
    'mice',
    'rats',
    'roaches',
    'cockroaches',
    'ants',
  ],
  locksmith: ['locksmiths', 'lockout', 'locked out', 'lock change', 'rekey', 'rekeying', 'key cutting'],
};

/** Lower case, punctuation and underscores to single spaces: "A/C-Repair" → "a c repair". */
export function normaliseServiceText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const LOOKUP: ReadonlyMap<string, Category> = (() => {
  const m = new Map<string, Category>();
  for (const slug of CATEGORY_SLUGS) {
    m.set(normaliseServiceText(slug), slug);
    for (const s of CATEGORY_SYNONYMS[slug]) m.set(normaliseServiceText(s), slug);
  }
  return m;
})();

/** The category a service name or synonym means, or undefined. */
export function findCategory(service: string): Category | undefined {
  return LOOKUP.get(normaliseServiceText(service));
}

/** Like findCategory, but an unknown service is a 400 naming `field` and listing the supported slugs. */
export function resolveCategory(service: string, field = 'service'): Category {
  const category = findCategory(service);
  if (!category) {
    throw new InvalidInput(
      `${field}: unknown service "${service.slice(0, 80)}". Supported services: ${CATEGORY_SLUGS.join(', ')} (common synonyms such as "ac repair" or "leaky faucet" work too).`,
      field,
      'UNKNOWN_SERVICE',
    );
  }
  return category;
}

/**
 * Categories mentioned anywhere in free text ("the kitchen sink has a leaky faucet" → plumber), in order of
 * first mention. Used to pick the service of a request that did not name one.
 */
export function categoriesMentioned(text: string): Category[] {
  const words = ` ${normaliseServiceText(text)} `;
  const hits: { category: Category; at: number }[] = [];
  for (const [phrase, category] of LOOKUP) {
    const at = words.indexOf(` ${phrase} `);
    if (at >= 0) hits.push({ category, at });
  }
  hits.sort((a, b) => a.at - b.at);
  return [...new Set(hits.map((h) => h.category))];
}
