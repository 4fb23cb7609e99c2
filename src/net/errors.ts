// Failures of the network layer, each carrying what a caller needs to report it exactly.
import { Forbidden, ToolError } from '../errors.js';
import type { AddressClass } from './address-policy.js';

/**
 * The target is not one this service connects to: a non-http(s) URL, or an address in a private, loopback,
 * link-local, metadata, multicast or reserved range, literally or after DNS resolution. Kind `input`: the
 * work was done as asked and the answer is "no".
 */
export class BlockedTargetError extends ToolError {
  constructor(
    message: string,
    /** The URL or host that was refused. */
    readonly target: string,
    /** The classification of the refused address, when an address was the reason. */
    readonly classification?: AddressClass,
  ) {
    super(message, 'input');
    this.name = 'BlockedTargetError';
  }

  /** As a 403 for submission-time checks (before anyone is charged). */
  toForbidden(field = 'url'): Forbidden {
    return new Forbidden(this.message, 'BLOCKED_TARGET', field);
  }
}

/** Maps a BlockedTargetError to the submission-time 403; anything else is rethrown unchanged. */
export function asForbidden(err: unknown, field = 'url'): never {
  if (err instanceof BlockedTargetError) throw err.toForbidden(field);
  throw err;
}

// Codes that say the name does not exist or has no addresses: retrying will not change the answer.
const DEFINITIVE_DNS_CODES = new Set(['ENOTFOUND', 'ENODATA', 'EBADNAME', 'ENONAME', 'EAI_NONAME', 'EAI_NODATA']);

/** A name could not be resolved to any address. */
export class DnsResolutionError extends ToolError {
  constructor(
    readonly host: string,
    /** The resolver's code, e.g. ENOTFOUND (NXDOMAIN), ENODATA (no A/AAAA), ETIMEOUT, ESERVFAIL. */
    readonly code: string,
  ) {
    super(`DNS lookup failed for ${host}: ${describeDnsCode(code)} (${code})`, DEFINITIVE_DNS_CODES.has(code) ? 'input' : 'transient');
    this.name = 'DnsResolutionError';
  }
}

function describeDnsCode(code: string): string {
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_NONAME':
      return 'no such domain (NXDOMAIN)';
    case 'ENODATA':
    case 'EAI_NODATA':
      return 'the name has no A or AAAA records';
    case 'ETIMEOUT':
    case 'EAI_AGAIN':
      return 'the DNS server did not answer in time';
    case 'ESERVFAIL':
      return 'the DNS server failed to answer (SERVFAIL)';
    case 'EREFUSED':
      return 'the DNS server refused the query';
    case 'ECONNREFUSED':
      return 'the DNS server could not be reached';
    case 'EBADNAME':
      return 'not a valid host name';
    default:
      return 'resolution failed';
  }
}

/** A connection attempt failed; `phase` says where, `code` is the system or TLS code. Worth retrying later. */
export class ConnectError extends ToolError {
  constructor(
    message: string,
    readonly phase: 'connect' | 'tls',
    readonly code: string,
    readonly address: string,
    readonly port: number,
    options?: { cause?: unknown },
  ) {
    super(message, 'transient');
    this.name = 'ConnectError';
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/** The server's certificate did not verify (chain, dates or host name). The connection was closed unused. */
export class TlsCertificateError extends ToolError {
  constructor(
    /** Node/OpenSSL code, e.g. CERT_HAS_EXPIRED, DEPTH_ZERO_SELF_SIGNED_CERT, ERR_TLS_CERT_ALTNAME_INVALID. */
    readonly code: string,
    message: string,
  ) {
    super(message, 'permanent');
    this.name = 'TlsCertificateError';
  }
}
