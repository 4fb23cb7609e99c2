// Turns what a caller typed as a domain name into the ASCII form DNS uses (IDNs to punycode, lower-case,
// no trailing dot), or says plainly why it is not a domain name. Pure, so input schemas can use it.
import net from 'node:net';
import { domainToASCII, domainToUnicode } from 'node:url';

export type DomainNameResult = { ok: true; ascii: string } | { ok: false; reason: string };

const MAX_NAME_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;
// Letters, digits and hyphens (not at either end); underscores too, for service names like _sip._tcp or _dmarc.
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?$/;
// ASCII characters a domain may hold; anything else ASCII (spaces, '%', '/', ':', '@', '*') is refused up
// front, because the WHATWG host parser behind domainToASCII would otherwise percent-decode or drop it.
const ASCII_ALLOWED = /^[A-Za-z0-9._-]$/;

export function normaliseDomainName(raw: string): DomainNameResult {
  const input = raw.trim();
  if (input === '') return { ok: false, reason: 'must not be empty' };
  const unbracketed = input.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(unbracketed) !== 0) return { ok: false, reason: `"${input}" is an IP address, not a domain name` };

  for (const ch of input) {
    if (ch.charCodeAt(0) < 0x80 && !ASCII_ALLOWED.test(ch)) {
      return { ok: false, reason: `"${input}" is not a valid domain name: the character ${JSON.stringify(ch)} is not allowed` };
    }
  }
  // One trailing dot is the fully qualified form of the same name.
  const withoutRoot = input.endsWith('.') ? input.slice(0, -1) : input;
  if (withoutRoot === '') return { ok: false, reason: 'the root name "." cannot be looked up; give a domain name' };

  const ascii = domainToASCII(withoutRoot).toLowerCase();
  if (ascii === '') return { ok: false, reason: `"${input}" is not a valid domain name or cannot be encoded as an internationalised domain name` };
  if (domainToASCII(domainToUnicode(ascii)) !== ascii) {
    return { ok: false, reason: `"${input}" contains a label that is not valid punycode (xn--)` };
  }

  const labels = ascii.split('.');
  const last = labels[labels.length - 1] ?? '';
  // domainToASCII reads "1.2.3" as the IPv4 address 1.2.0.3; no top-level domain is numeric.
  if (net.isIP(ascii) !== 0 || /^\d+$/.test(last)) return { ok: false, reason: `"${input}" looks like an IP address, not a domain name` };
  if (ascii.length > MAX_NAME_LENGTH) return { ok: false, reason: `is ${ascii.length} characters long; a domain name has at most ${MAX_NAME_LENGTH}` };
  for (const label of labels) {
    if (label === '') return { ok: false, reason: `"${input}" has an empty label (two dots in a row, or a leading dot)` };
    if (label.length > MAX_LABEL_LENGTH) {
      return { ok: false, reason: `the label "${label.slice(0, 20)}…" is ${label.length} characters long; a label has at most ${MAX_LABEL_LENGTH}` };
    }
    if (!LABEL.test(label)) {
      return { ok: false, reason: `the label "${label}" is not valid: use letters, digits, hyphens (not first or last) and underscores` };
    }
  }
  return { ok: true, ascii };
}
