// Is this response a bot wall (a challenge, a captcha or a block page) rather than the page asked for?
// Pure: the response's status and headers and the page's facts (page-facts.ts) in, the verdict and the
// signals behind it out. Detection only; nothing here tries to get past a wall.
//
// False walls cost more than missed ones (a real page withheld), so one word is never enough: an article
// that mentions "captcha" or "access denied" stays an article. A wall needs a short page plus either a
// captcha or challenge structure with words or a status that back it, or a refusal status with words only
// a bot check or block page uses, or a response header in which the site says it answered with a challenge.
import type { PageFacts } from './page-facts.js';
import {
  ACCESS_DENIED_PHRASES,
  BOT_CHECK_PHRASES,
  CHALLENGE_HEADER_NAME,
  CHALLENGE_HEADER_VALUE,
  CHALLENGE_RESOURCE,
  DENIED_TITLES,
  JS_REQUIRED,
  REFERENCE_ID,
  WALL_TITLES,
} from './vocabulary.js';

export interface ResponseFacts {
  /** HTTP status of the main document; null when unknown (HTML given directly). */
  status: number | null;
  /** Response headers, names in lower case. */
  headers?: Readonly<Record<string, string | string[] | undefined>>;
}

export interface WallVerdict {
  wall: boolean;
  /** Every signal seen, in a few words each ("status 403", "captcha frame …/captcha/…"), wall or not. */
  signals: string[];
}

/** Walls are short: a page with more visible text than this is read as content whatever it says. */
export const WALL_MAX_TEXT_CHARS = 3_000;
/** A title longer than this is a headline, not an interstitial's. */
const WALL_TITLE_MAX_CHARS = 80;
/** A wall links to next to nothing (a privacy notice, a help page); a site's own page has its navigation. */
export const WALL_MAX_LINKS = 10;
/** Statuses a wall is served with (a site's refusal, a rate limit, a challenge served as unavailable). */
const REFUSAL_STATUSES = new Set([403, 429, 503]);

const normalise = (s: string) => s.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, ' ');

function firstPhrase(text: string, phrases: readonly string[]): string | undefined {
  return phrases.find((p) => text.includes(p));
}

function shortUrl(src: string): string {
  return src.length > 80 ? `${src.slice(0, 77)}…` : src;
}

export function classifyBotWall(response: ResponseFacts, facts: PageFacts): WallVerdict {
  const signals: string[] = [];
  const status = response.status;
  const text = normalise(facts.text);
  const title = normalise(facts.title).trim();

  // Structure: a captcha or challenge widget, frame, script or form.
  const captchaFrame = facts.iframeSrcs.find((s) => CHALLENGE_RESOURCE.test(s));
  if (captchaFrame) signals.push(`captcha or challenge frame ${shortUrl(captchaFrame)}`);
  const challengeScript = facts.scriptSrcs.find((s) => CHALLENGE_RESOURCE.test(s));
  if (challengeScript) signals.push(`challenge script ${shortUrl(challengeScript)}`);
  if (facts.challengeMarkup.length > 0) signals.push(`challenge markup ${facts.challengeMarkup[0]!.slice(0, 80)}`);
  if (facts.siteKey) signals.push('captcha site key');
  const structure = signals.length > 0;

  const header = challengeHeader(response.headers);
  if (header) signals.push(`response header ${header}`);

  const refusal = status !== null && REFUSAL_STATUSES.has(status);
  if (refusal) signals.push(`status ${status}`);

  const botWords = firstPhrase(text, BOT_CHECK_PHRASES) ?? firstPhrase(title, BOT_CHECK_PHRASES);
  if (botWords) signals.push(`text "${botWords}"`);
  const wallTitle = title.length > 0 && title.length <= WALL_TITLE_MAX_CHARS && WALL_TITLES.some((re) => re.test(title));
  if (wallTitle) signals.push(`title "${facts.title.slice(0, WALL_TITLE_MAX_CHARS)}"`);
  const deniedTitle = title.length <= WALL_TITLE_MAX_CHARS && DENIED_TITLES.some((re) => re.test(title)) ? title : undefined;
  const deniedWords = firstPhrase(text, ACCESS_DENIED_PHRASES) ?? deniedTitle ?? firstPhrase(title, ACCESS_DENIED_PHRASES);
  if (deniedWords) signals.push(`text "${deniedWords}"`);
  const reference = REFERENCE_ID.exec(facts.text)?.[0];
  if (reference) signals.push(`reference id "${reference.slice(0, 60)}"`);
  const jsGate = facts.metaRefresh && JS_REQUIRED.test(facts.noscriptText);
  if (jsGate) signals.push('meta refresh with a noscript asking for JavaScript or cookies');

  const short = facts.textLength <= WALL_MAX_TEXT_CHARS;
  if (short) signals.push(`short page (${facts.textLength} characters of text)`);
  // Without a refusal status the words must come from a page that is nothing but the check: a site's own
  // contact or sign-in form may carry a captcha and ask "are you a robot?" among its navigation.
  const thin = facts.linkCount <= WALL_MAX_LINKS;
  const checkWords = botWords !== undefined || wallTitle || jsGate;
  // A rate limit refuses the page whatever else the body holds.
  const wall =
    status === 429 ||
    (short &&
      (header !== undefined ||
        (structure && thin && (refusal || checkWords)) ||
        (refusal && (checkWords || (deniedWords !== undefined && reference !== undefined))) ||
        (wallTitle && thin && (botWords !== undefined || jsGate))));
  return { wall, signals };
}

/** A response header in which the answering CDN or bot manager says it served a challenge or a block. */
function challengeHeader(headers: ResponseFacts['headers']): string | undefined {
  if (!headers) return undefined;
  for (const [name, raw] of Object.entries(headers)) {
    if (!CHALLENGE_HEADER_NAME.test(name)) continue;
    for (const value of Array.isArray(raw) ? raw : [raw]) {
      if (value !== undefined && CHALLENGE_HEADER_VALUE.test(value.trim())) return `${name}: ${value.trim().slice(0, 40)}`;
    }
  }
  return undefined;
}
