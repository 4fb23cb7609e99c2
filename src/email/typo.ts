// "Did you mean…?" for misspelt popular mail domains (gmial.com → gmail.com), by edit distance with
// transpositions (optimal string alignment), plus a table of common top-level-domain slips (.con, .cmo).
// Short domains are only corrected through their TLD: one edit turns att.net into art.net, a real domain.
import { matchAcceptAllProvider } from './accept-all-providers.js';
import { isDisposableDomain, isFreeEmailDomain } from './lists.js';
import { editDistance } from '../edit-distance.js';

/** Popular consumer mail domains, most used first (a tie goes to the earlier one). */
export const POPULAR_MAIL_DOMAINS = [
  'gmail.com',
  'yahoo.com',
  'hotmail.com',
  'outlook.com',
  'icloud.com',
  'aol.com',
  'live.com',
  'msn.com',
  'googlemail.com',
  'protonmail.com',
  'proton.me',
  'yahoo.co.uk',
  'hotmail.co.uk',
  'me.com',
  'mac.com',
  'gmx.com',
  'gmx.de',
  'gmx.net',
  'web.de',
  'mail.com',
  'yandex.ru',
  'yandex.com',
  'mail.ru',
  'zoho.com',
  'fastmail.com',
  'comcast.net',
  'att.net',
  'sbcglobal.net',
  'verizon.net',
  'bellsouth.net',
  'qq.com',
  '163.com',
  'naver.com',
  'orange.fr',
  'free.fr',
  'laposte.net',
  't-online.de',
  'btinternet.com',
  'libero.it',
] as const;

const TLD_SLIPS: Record<string, string> = {
  con: 'com',
  cmo: 'com',
  ocm: 'com',
  vom: 'com',
  xom: 'com',
  comm: 'com',
  cm: 'com',
  om: 'com',
  co: 'com',
  coom: 'com',
  c0m: 'com',
  nte: 'net',
  ner: 'net',
  met: 'net',
  nett: 'net',
  ent: 'net',
  ogr: 'org',
  orgg: 'org',
  rog: 'org',
};

/** Below this length a one-letter change is too likely to be another real domain. */
const MIN_EDITABLE_LENGTH = 8;

function allowedDistance(candidate: string): number {
  if (candidate.length < MIN_EDITABLE_LENGTH) return 0;
  return candidate.length >= 10 ? 2 : 1;
}

/**
 * A real provider's own domain is never "corrected". The provider lists also carry typo-squatting domains
 * (gmial.com is both "free" and "disposable"), so only a free domain that is not disposable counts.
 */
function isKnownGenuine(domain: string): boolean {
  if ((POPULAR_MAIL_DOMAINS as readonly string[]).includes(domain)) return true;
  if (matchAcceptAllProvider(domain)?.by === 'domain') return true;
  return isFreeEmailDomain(domain) && !isDisposableDomain(domain);
}

/** A corrected domain when `domain` (ASCII, lower case) looks like a slip of a popular one, else null. */
export function suggestDomain(domain: string): string | null {
  const d = domain.toLowerCase();
  if (isKnownGenuine(d)) return null;

  // A known TLD slip is fixed first (gmial.con → gmial.com), then the name is matched by edit distance.
  const lastDot = d.lastIndexOf('.');
  const fixedTld = lastDot > 0 ? TLD_SLIPS[d.slice(lastDot + 1)] : undefined;
  const forms = fixedTld ? [`${d.slice(0, lastDot)}.${fixedTld}`, d] : [d];
  if ((POPULAR_MAIL_DOMAINS as readonly string[]).includes(forms[0]!) && forms[0] !== d) return forms[0]!;

  let best: { domain: string; distance: number } | null = null;
  for (const form of forms) {
    for (const candidate of POPULAR_MAIL_DOMAINS) {
      const limit = allowedDistance(candidate);
      if (limit === 0 || Math.abs(candidate.length - form.length) > limit) continue;
      const distance = editDistance(form, candidate);
      if (distance > 0 && distance <= limit && (!best || distance < best.distance)) best = { domain: candidate, distance };
    }
  }
  return best?.domain ?? null;
}
