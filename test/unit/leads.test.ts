// Pure parts of the lead service: categories, geography, CSV, quota clock, signatures, backoff, ranking,
// phones and the demo dataset.
import { describe, expect, it } from 'vitest';
import { overallDelivery } from '../../src/leads/routes/requests.js';
import { CATEGORY_SLUGS, categoriesMentioned, findCategory, resolveCategory } from '../../src/leads/categories.js';
import { parseCsv } from '../../src/leads/csv.js';
import { DEMO_METROS, DEMO_PROS_PER_CATEGORY, DEMO_SPREAD_MILES, demoPros } from '../../src/leads/demo-data.js';
import { backoffMs } from '../../src/webhooks/post.js';
import { boundingBox, haversineMiles, requireZip, zipCentroid } from '../../src/leads/geo.js';
import { proIdFor } from '../../src/leads/ids.js';
import { toE164 } from '../../src/leads/phone.js';
import { secondsUntilUtcMidnight, utcDay } from '../../src/leads/quota.js';
import { rankWithinRadius } from '../../src/leads/search.js';
import type { DeliveryRecord, Pro } from '../../src/leads/types.js';
import { signWebhook, verifyWebhook } from '../../src/leads/webhook-signature.js';

describe('categories', () => {
  it('has the ten core slugs and maps synonyms', () => {
    expect(CATEGORY_SLUGS).toHaveLength(10);
    expect(findCategory('AC repair')).toBe('hvac');
    expect(findCategory('a/c-repair')).toBe('hvac');
    expect(findCategory('leaky faucet')).toBe('plumber');
    expect(findCategory('House_Cleaning')).toBe('house_cleaning');
    expect(findCategory('exterminator')).toBe('pest_control');
    expect(findCategory('astrology')).toBeUndefined();
  });

  it('an unknown service is a 400 listing every supported slug', () => {
    try {
      resolveCategory('astrology');
      expect.unreachable();
    } catch (err) {
      expect(err).toMatchObject({ status: 400, code: 'UNKNOWN_SERVICE', field: 'service' });
      for (const slug of CATEGORY_SLUGS) expect((err as Error).message).toContain(slug);
    }
  });

  it('finds categories mentioned in free text, in order', () => {
    expect(categoriesMentioned('Our furnace died and there is a leaky faucet too')).toEqual(['hvac', 'plumber']);
    expect(categoriesMentioned('nothing relevant here')).toEqual([]);
  });
});

describe('geography', () => {
  it('knows US ZIP centroids and skips unknown or 0,0 ones', () => {
    expect(zipCentroid('10001')).toMatchObject({ city: 'New York', state: 'NY' });
    expect(zipCentroid('00000')).toBeUndefined();
    expect(() => requireZip('1234')).toThrow(/exactly five digits/);
    expect(() => requireZip('00000')).toThrow(/not a US ZIP code with a known location/);
  });

  it('haversine matches known distances', () => {
    // New York (40.7128, -74.0060) to Los Angeles (34.0522, -118.2437): about 2,445 miles.
    expect(haversineMiles(40.7128, -74.006, 34.0522, -118.2437)).toBeCloseTo(2445, -1);
    expect(haversineMiles(40, -74, 40, -74)).toBe(0);
  });

  it('the bounding box contains every point on the radius circle', () => {
    const centres: [number, number][] = [
      [40.75, -74],
      [64.8, -147.7],
      [21.3, -157.8],
    ];
    for (const [lat, lng] of centres) {
      const miles = 25;
      const box = boundingBox(lat, lng, miles);
      for (let deg = 0; deg < 360; deg += 5) {
        const a = (deg * Math.PI) / 180;
        // Step outwards along a bearing until just inside the radius.
        let pLat = lat;
        let pLng = lng;
        for (let s = 0.001; ; s += 0.001) {
          const cLat = lat + s * Math.cos(a);
          const cLng = lng + (s * Math.sin(a)) / Math.cos((lat * Math.PI) / 180);
          if (haversineMiles(lat, lng, cLat, cLng) > miles) break;
          pLat = cLat;
          pLng = cLng;
        }
        expect(pLat).toBeGreaterThanOrEqual(box.minLat);
        expect(pLat).toBeLessThanOrEqual(box.maxLat);
        expect(pLng).toBeGreaterThanOrEqual(box.minLng);
        expect(pLng).toBeLessThanOrEqual(box.maxLng);
      }
    }
  });
});

describe('csv', () => {
  it('reads quotes, doubled quotes, embedded newlines, CRLF and a BOM, and skips blank lines', () => {
    const recs = parseCsv('\ufeffa,b\r\n"x, y","say ""hi"""\r\n"multi\nline",2\n\n3,\n');
    expect(recs.map((r) => r.fields)).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['multi\nline', '2'],
      ['3', ''],
    ]);
  });

  it('reports an unclosed quote with its line', () => {
    expect(() => parseCsv('a\n"open\n')).toThrow(/line 2/);
  });
});

describe('quota clock', () => {
  it('days are UTC dates and reset at midnight UTC', () => {
    expect(utcDay(Date.parse('2030-01-15T23:59:59Z'))).toBe('2030-01-15');
    expect(utcDay(Date.parse('2030-01-16T00:00:00Z'))).toBe('2030-01-16');
    expect(secondsUntilUtcMidnight(Date.parse('2030-01-15T23:00:00Z'))).toBe(3600);
    expect(secondsUntilUtcMidnight(Date.parse('2030-01-15T00:00:00Z'))).toBe(86400);
  });
});

describe('webhook signatures', () => {
  const body = '{"type":"request.created"}';
  it('verifies what it signs, within the tolerance', () => {
    const sig = signWebhook('secret-0123456789', 1_700_000_000, body);
    expect(sig).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(verifyWebhook('secret-0123456789', { timestamp: '1700000000', signature: sig }, body, 1_700_000_100)).toBe(true);
  });
  it('rejects tampering, another secret and stale timestamps', () => {
    const sig = signWebhook('secret-0123456789', 1_700_000_000, body);
    expect(verifyWebhook('secret-0123456789', { timestamp: '1700000000', signature: sig }, `${body} `, 1_700_000_000)).toBe(false);
    expect(verifyWebhook('other-secret-0000', { timestamp: '1700000000', signature: sig }, body, 1_700_000_000)).toBe(false);
    expect(verifyWebhook('secret-0123456789', { timestamp: '1700000001', signature: sig }, body, 1_700_000_001)).toBe(false);
    expect(verifyWebhook('secret-0123456789', { timestamp: '1700000000', signature: sig }, body, 1_700_000_301)).toBe(false);
  });
});

describe('backoff', () => {
  it('doubles per attempt within ±20% jitter and caps', () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4].map((n) => backoffMs(n, 1000, 60_000, mid))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffMs(20, 1000, 60_000, mid)).toBe(60_000);
    expect(backoffMs(1, 1000, 60_000, () => 0)).toBe(800);
    expect(backoffMs(1, 1000, 60_000, () => 1)).toBe(1200);
  });
});

describe('ranking', () => {
  const base: Omit<Pro, 'id' | 'name' | 'lat' | 'lng' | 'rating' | 'reviewCount'> = {
    externalId: 'x',
    services: ['plumber'],
    zip: '10001',
    phone: null,
    email: null,
    webhookUrl: null,
    webhookSecret: null,
    address: null,
    website: null,
    description: null,
    isDemo: false,
    createdAt: 0,
    updatedAt: 0,
  };
  const at = (name: string, lat: number, rating: number | null, reviewCount: number | null = null): Pro => ({
    ...base,
    id: `pro_${name}`,
    name,
    lat,
    lng: -74,
    rating,
    reviewCount,
  });

  it('orders by displayed distance, then rating, then reviews; drops pros outside the radius', () => {
    // 0.0005° of latitude ≈ 0.03 mi: a and b both show 0.0 mi; c is about 0.7 mi; far is ~69 mi.
    const out = rankWithinRadius([at('c', 40.01, 5), at('a', 40.0, 4.1, 5), at('b', 40.0005, 4.8), at('a2', 40.0, 4.1, 50), at('far', 41, 5)], {
      lat: 40,
      lng: -74,
      radiusMiles: 25,
      limit: 10,
    });
    expect(out.results.map((r) => r.name)).toEqual(['b', 'a2', 'a', 'c']);
    expect(out.total).toBe(4);
  });
});

describe('delivery summary', () => {
  const d = (status: DeliveryRecord['status']) => ({ status }) as DeliveryRecord;
  it('summarises channels in one word', () => {
    expect(overallDelivery([])).toBe('none');
    expect(overallDelivery([d('delivered'), d('delivered')])).toBe('delivered');
    expect(overallDelivery([d('delivered'), d('pending')])).toBe('pending');
    expect(overallDelivery([d('delivered'), d('failed')])).toBe('partially_delivered');
    expect(overallDelivery([d('failed')])).toBe('failed');
    expect(overallDelivery([d('skipped'), d('skipped')])).toBe('skipped');
  });
});

describe('phones', () => {
  it('normalise to E.164 with US as the default region', () => {
    expect(toE164('(201) 555-0123')).toBe('+12015550123');
    expect(toE164('201.555.0123')).toBe('+12015550123');
    expect(toE164('+44 20 7946 0958')).toBe('+442079460958');
    expect(toE164('12345')).toBeUndefined();
  });
});

describe('demo dataset', () => {
  const pros = demoPros();
  it('is deterministic and covers every metro and category', () => {
    expect(demoPros()).toEqual(pros);
    expect(pros).toHaveLength(DEMO_METROS.length * CATEGORY_SLUGS.length * DEMO_PROS_PER_CATEGORY);
    for (const m of DEMO_METROS) expect(zipCentroid(m.zip), m.zip).toBeDefined();
    expect(new Set(pros.map((p) => proIdFor(p.externalId))).size).toBe(pros.length);
  });
  it('cannot be mistaken for real businesses', () => {
    for (const p of pros) {
      expect(p.isDemo).toBe(true);
      expect(p.name).toMatch(/ \(Demo\)$/);
      expect(p.phone).toMatch(/^\+1\d{3}55501\d{2}$/);
      expect(new URL(p.website ?? '').hostname.endsWith('.example')).toBe(true);
      expect(p.email?.endsWith('.example')).toBe(true);
      const c = zipCentroid(p.zip)!;
      expect(haversineMiles(c.lat, c.lng, p.lat, p.lng)).toBeLessThanOrEqual(DEMO_SPREAD_MILES + 0.5);
    }
  });
});
