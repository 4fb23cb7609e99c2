// Practical address syntax: RFC 5321 mailbox (dot-atom or quoted-string local part, a host name domain),
// with RFC 6531 UTF-8 local parts and IDN domains (IDNA via the WHATWG URL host parser). Address literals
// (user@[192.0.2.1]) are refused: public mail never uses them, and they would aim the probe at an arbitrary IP.
import { domainToASCII, domainToUnicode } from 'node:url';

/** RFC 5321 §4.5.3.1.1: local part at most 64 octets. */
export const MAX_LOCAL_OCTETS = 64;
/** RFC 5321 §4.5.3.1.3 path limit of 256 octets minus the angle brackets. */
export const MAX_ADDRESS_OCTETS = 254;
const MAX_DOMAIN_OCTETS = 253;
const MAX_LABEL_OCTETS = 63;

export interface ParsedAddress {
  /** Local part in its simplest form (unquoted when the quotes were not needed). */
  local: string;
  /** Lower-case A-label (punycode) form, what DNS and SMTP use. */
  domainAscii: string;
  /** Lower-case U-label form, what people read. */
  domainUnicode: string;
  /** local@domainUnicode, the normalised address reported as `email`. */
  normalized: string;
  /** local@domainAscii, what RCPT TO carries. */
  smtpAddress: string;
  /** The local part holds non-ASCII characters: the server must offer SMTPUTF8 (RFC 6531). */
  needsSmtpUtf8: boolean;
}

export type SyntaxResult = { ok: true; address: ParsedAddress } | { ok: false; reason: string };

// RFC 5322 atext; RFC 6531 adds any non-ASCII UTF-8 character.
const ATEXT = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~\u0080-\u{10FFFF}]+$/u;
const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
// Printable ASCII (and UTF-8) inside quotes; quotes and backslashes only as quoted pairs.
const QTEXT_OR_PAIR = /^(?:[\x20\x21\x23-\x5b\x5d-\x7e\u0080-\u{10FFFF}]|\\[\x20-\x7e])*$/u;

const octets = (s: string): number => Buffer.byteLength(s, 'utf8');

function isDotAtom(s: string): boolean {
  return s.length > 0 && s.split('.').every((atom) => ATEXT.test(atom));
}

function parseLocal(raw: string): { ok: true; local: string } | { ok: false; reason: string } {
  if (raw.length === 0) return { ok: false, reason: 'the local part (before @) is empty' };
  if (raw.startsWith('"')) {
    if (raw.length < 2 || !raw.endsWith('"')) return { ok: false, reason: 'unterminated quoted local part' };
    const inner = raw.slice(1, -1);
    if (!QTEXT_OR_PAIR.test(inner)) return { ok: false, reason: 'invalid character in the quoted local part' };
    // RFC 5321 §4.1.2: the quoted form SHOULD NOT be used when a dot-atom would do.
    const unescaped = inner.replace(/\\(.)/g, '$1');
    return { ok: true, local: isDotAtom(unescaped) ? unescaped : raw };
  }
  if (raw.startsWith('.') || raw.endsWith('.')) return { ok: false, reason: 'the local part starts or ends with a dot' };
  if (raw.includes('..')) return { ok: false, reason: 'the local part has two dots in a row' };
  if (!isDotAtom(raw)) return { ok: false, reason: 'invalid character in the local part' };
  return { ok: true, local: raw };
}

function parseDomain(raw: string): { ok: true; ascii: string; unicode: string } | { ok: false; reason: string } {
  if (raw.length === 0) return { ok: false, reason: 'the domain (after @) is empty' };
  if (raw.startsWith('[')) return { ok: false, reason: 'address literals such as [192.0.2.1] are not accepted' };
  if (/[\s/\\?#@:%]/u.test(raw)) return { ok: false, reason: 'invalid character in the domain' };
  if (raw.endsWith('.')) return { ok: false, reason: 'the domain ends with a dot' };
  const ascii = domainToASCII(raw);
  if (ascii === '') return { ok: false, reason: 'the domain is not a valid (internationalised) host name' };
  if (octets(ascii) > MAX_DOMAIN_OCTETS) return { ok: false, reason: 'the domain is longer than 253 characters' };
  const labels = ascii.split('.');
  if (labels.length < 2) return { ok: false, reason: 'the domain needs at least two labels (e.g. example.com)' };
  for (const label of labels) {
    if (label.length === 0) return { ok: false, reason: 'the domain has an empty label' };
    if (label.length > MAX_LABEL_OCTETS) return { ok: false, reason: 'a domain label is longer than 63 characters' };
    if (!LDH_LABEL.test(label)) return { ok: false, reason: `invalid domain label "${label}"` };
  }
  if (/^\d+$/.test(labels[labels.length - 1] ?? '')) return { ok: false, reason: 'the top-level domain is numeric' };
  return { ok: true, ascii, unicode: domainToUnicode(ascii) || ascii };
}

/** Checks and normalises one address. Never throws; an invalid address is a result with a reason. */
export function parseAddress(input: string): SyntaxResult {
  const raw = input.trim();
  // The last @ separates: a quoted local part may itself contain @.
  const at = raw.lastIndexOf('@');
  if (at < 0) return { ok: false, reason: 'the address has no @' };
  const local = parseLocal(raw.slice(0, at));
  if (!local.ok) return local;
  const domain = parseDomain(raw.slice(at + 1));
  if (!domain.ok) return domain;
  if (octets(local.local) > MAX_LOCAL_OCTETS) return { ok: false, reason: 'the local part is longer than 64 octets' };
  const smtpAddress = `${local.local}@${domain.ascii}`;
  if (octets(smtpAddress) > MAX_ADDRESS_OCTETS) return { ok: false, reason: 'the address is longer than 254 octets' };
  return {
    ok: true,
    address: {
      local: local.local,
      domainAscii: domain.ascii,
      domainUnicode: domain.unicode,
      normalized: `${local.local}@${domain.unicode}`,
      smtpAddress,
      needsSmtpUtf8: /[^\p{ASCII}]/u.test(local.local),
    },
  };
}
