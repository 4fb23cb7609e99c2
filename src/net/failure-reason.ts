// Turns why an HTTP check failed into one exact sentence for url.status's status_text.
import { BlockedTargetError, ConnectError, DnsResolutionError, TlsCertificateError } from './errors.js';
import type { ConnectionAttempt } from './guarded-connector.js';

/** The check's own time limit passed (distinct from the task being cancelled). */
export class CheckTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms`);
    this.name = 'CheckTimeout';
  }
}

const TLS_CODE_TEXT: Record<string, string> = {
  CERT_HAS_EXPIRED: 'the certificate has expired',
  CERT_NOT_YET_VALID: 'the certificate is not yet valid',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'the certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'the chain ends in an untrusted self-signed root',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the certificate is not signed by a trusted authority',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the issuer certificate is not trusted or missing',
  UNABLE_TO_GET_ISSUER_CERT: 'the issuer certificate is missing',
  CERT_REVOKED: 'the certificate is revoked',
  CERT_SIGNATURE_FAILURE: 'the certificate signature is invalid',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the certificate is not issued for this host name',
};

export function describeTlsCode(code: string): string {
  return TLS_CODE_TEXT[code] ?? 'the certificate did not verify';
}

/** One sentence naming what failed, where, and the code. */
export function failureReason(err: unknown, attempt: ConnectionAttempt | null, url: URL): string {
  if (err instanceof CheckTimeout) return `Timed out after ${err.timeoutMs} ms ${phaseText(attempt, url)}`;
  if (err instanceof BlockedTargetError || err instanceof DnsResolutionError || err instanceof ConnectError) return err.message;
  if (err instanceof TlsCertificateError) return `TLS certificate error for ${url.hostname}: ${describeTlsCode(err.code)} (${err.code})`;
  const code = (err as { code?: unknown } | null)?.code;
  const message = err instanceof Error ? err.message : String(err);
  switch (code) {
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `Timed out ${phaseText(attempt, url)} (${code})`;
    case 'UND_ERR_SOCKET':
      return `Connection closed by ${url.host} before a complete response (${code})`;
    case 'UND_ERR_HEADERS_OVERFLOW':
      return `Response headers from ${url.host} are too large (${code})`;
    case 'HPE_INVALID_CONSTANT':
    case 'HPE_INVALID_VERSION':
    case 'HPE_INVALID_STATUS':
    case 'HPE_INVALID_HEADER_TOKEN':
      return `Invalid HTTP response from ${url.host}: ${message} (${code})`;
    default:
      return typeof code === 'string' ? `Request to ${url.host} failed: ${message} (${code})` : `Request to ${url.host} failed: ${message}`;
  }
}

function phaseText(attempt: ConnectionAttempt | null, url: URL): string {
  switch (attempt?.phase) {
    case undefined:
    case 'dns':
      return `resolving ${url.hostname}`;
    case 'connect':
      return `connecting to ${attempt.address ?? url.hostname} port ${attempt.port}`;
    case 'tls':
      return `in the TLS handshake with ${url.hostname}`;
    default:
      return `waiting for response headers from ${url.href}`;
  }
}
