// Crawler traps: URL spaces that never end. Session ids are dropped by normalisation (normalise-url.ts) and
// redirect loops end at de-duplication (a redirect's target is just another link); what is left is bounded
// here: repeating path segments, very long or deep URLs, calendars (date-shaped paths or parameters) and
// query explosions (one path with ever new query strings). Each rule is a count per URL shape, so a trap
// costs at most its allowance whatever the crawl's limit.

/** Most distinct query strings crawled for one path (sorting, filters, paging…). */
export const MAX_QUERIES_PER_PATH = 20;
/** Most pages crawled of one date-shaped URL pattern (a calendar's months). */
export const MAX_PAGES_PER_CALENDAR = 12;
const MAX_URL_LENGTH = 2048;
const MAX_SEGMENTS = 20;
/** A segment this many times in one path ("/a/a/a/") is a relative link feeding on itself. */
const MAX_SEGMENT_REPEATS = 2;

const YEAR = /^(?:19|20)\d\d$/;
const DATE_SEGMENT = /^(?:19|20)\d\d-\d\d(?:-\d\d)?$/;
const DATE_PARAMETERS = /^(?:date|day|month|year|week|cal|calendar|from|to|start|end)$/i;

export type TrapKind = 'repeating_segments' | 'too_long' | 'calendar' | 'query_explosion';

export class TrapGuard {
  private readonly queriesPerPath = new Map<string, number>();
  private readonly pagesPerCalendar = new Map<string, number>();
  /** URLs refused, by rule. */
  readonly refused: Record<TrapKind, number> = { repeating_segments: 0, too_long: 0, calendar: 0, query_explosion: 0 };

  /** Null when `url` (normalised, not yet crawled) may be crawled, and counts it; else the rule it breaks. */
  admit(url: string): TrapKind | null {
    const kind = this.check(url);
    if (kind) this.refused[kind]++;
    return kind;
  }

  private check(url: string): TrapKind | null {
    if (url.length > MAX_URL_LENGTH) return 'too_long';
    const u = new URL(url);
    const segments = u.pathname.split('/').filter(Boolean);
    if (segments.length > MAX_SEGMENTS) return 'too_long';
    const counts = new Map<string, number>();
    for (const s of segments) {
      const n = (counts.get(s) ?? 0) + 1;
      if (n > MAX_SEGMENT_REPEATS) return 'repeating_segments';
      counts.set(s, n);
    }
    const calendar = calendarShape(u, segments);
    if (calendar !== null) {
      const n = (this.pagesPerCalendar.get(calendar) ?? 0) + 1;
      if (n > MAX_PAGES_PER_CALENDAR) return 'calendar';
      this.pagesPerCalendar.set(calendar, n);
    }
    if (u.search) {
      const path = `${u.host}${u.pathname}`;
      const n = (this.queriesPerPath.get(path) ?? 0) + 1;
      if (n > MAX_QUERIES_PER_PATH) return 'query_explosion';
      this.queriesPerPath.set(path, n);
    }
    return null;
  }
}

/** The URL with its date parts blanked ("/calendar/#/#"), or null when it has none. */
function calendarShape(u: URL, segments: string[]): string | null {
  let dated = false;
  const shape = segments.map((s, i) => {
    if (DATE_SEGMENT.test(s)) return ((dated = true), '#');
    // A year followed by a month ("/2026/1", "/2026/01/15").
    if (YEAR.test(s) && /^\d{1,2}$/.test(segments[i + 1] ?? '')) return ((dated = true), '#');
    if (dated && /^\d{1,2}$/.test(s)) return '#';
    return s;
  });
  const params = [...u.searchParams.keys()].filter((k) => DATE_PARAMETERS.test(k));
  if (!dated && params.length === 0) return null;
  return `${u.host}/${shape.join('/')}?${params.sort().join('&')}`;
}
