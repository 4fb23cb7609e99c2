// What a completed TLS handshake says about the server's certificate, read from the socket whether or not
// it verified, so a bad certificate can be described instead of only refused.
import type { PeerCertificate, TLSSocket } from 'node:tls';

export interface TlsReport {
  /** Chain to a trusted root, within its dates, and issued for the host name. */
  valid: boolean;
  /** Why it is not valid: the Node/OpenSSL code (CERT_HAS_EXPIRED, DEPTH_ZERO_SELF_SIGNED_CERT, ERR_TLS_CERT_ALTNAME_INVALID, …). */
  error: string | null;
  issuer: string | null;
  subject: string | null;
  /** ISO 8601 date-times. */
  valid_from: string | null;
  valid_to: string | null;
  /** Whole days until valid_to; negative once expired. */
  days_remaining: number | null;
  /** Negotiated protocol, e.g. TLSv1.3. */
  protocol: string | null;
}

const DAY_MS = 86_400_000;

export function tlsReportOf(socket: TLSSocket, now: number = Date.now()): TlsReport {
  const cert = socket.getPeerCertificate();
  const has = cert && Object.keys(cert).length > 0;
  const validTo = has ? toIso(cert.valid_to) : null;
  const authorizationError = socket.authorizationError as unknown as Error | string | null | undefined;
  const error = socket.authorized ? null : (errorCode(authorizationError) ?? 'UNVERIFIED');
  return {
    valid: socket.authorized && has === true,
    error,
    issuer: has ? distinguishedName(cert.issuer) : null,
    subject: has ? distinguishedName(cert.subject) : null,
    valid_from: has ? toIso(cert.valid_from) : null,
    valid_to: validTo,
    days_remaining: validTo ? Math.floor((Date.parse(validTo) - now) / DAY_MS) : null,
    protocol: socket.getProtocol() ?? null,
  };
}

/** A report for an https URL whose handshake never completed (nothing to describe but the reason). */
export function failedTlsReport(error: string | null): TlsReport {
  return { valid: false, error, issuer: null, subject: null, valid_from: null, valid_to: null, days_remaining: null, protocol: null };
}

// socket.authorizationError is typed as Error but Node sets it to the code string.
function errorCode(e: Error | string | null | undefined): string | null {
  if (!e) return null;
  if (typeof e === 'string') return e;
  return (e as { code?: string }).code ?? e.message;
}

/** "CN=Test CA, O=Example" from Node's certificate subject object (multi-valued fields joined with "+"). */
function distinguishedName(dn: PeerCertificate['subject'] | undefined): string | null {
  if (!dn) return null;
  const parts = Object.entries(dn as unknown as Record<string, string | string[]>).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('+') : v}`);
  return parts.length > 0 ? parts.join(', ') : null;
}

function toIso(opensslDate: string | undefined): string | null {
  if (!opensslDate) return null;
  const t = Date.parse(opensslDate);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}
