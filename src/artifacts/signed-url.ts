// Signed artifact URLs: <base>/<file_id><ext>?expires=<unix seconds>&sig=<HMAC-SHA256>. The signature
// covers the id and the expiry, so neither can be changed; the extension is cosmetic (it makes saved
// downloads open with the right program) and is not signed.
import { expiringSignature, type SignatureCheck } from '../auth/expiring-signature.js';
import type { Config } from '../config.js';
import { extensionFor } from './artifact-store.js';

// A key of its own, derived from the service secret, so a file signature can never be replayed as
// anything else the secret signs (poll tokens, results links).
const fileUrlSignature = expiringSignature('agent-utility/file-url/v1');

export function signFileId(secret: string, fileId: string, expiresAtSeconds: number): string {
  return fileUrlSignature.sign(secret, fileId, expiresAtSeconds);
}

/** Where signed file URLs point: STORAGE_URL if set, else PUBLIC_URL/files. */
export function fileUrlBase(config: Pick<Config, 'storageUrl' | 'publicUrl'>): string {
  return config.storageUrl ?? `${config.publicUrl}/files`;
}

export function signedFileUrl(
  config: Pick<Config, 'storageUrl' | 'publicUrl'>,
  secret: string,
  file: { fileId: string; contentType: string; expiresAt: Date },
): string {
  const expires = Math.floor(file.expiresAt.getTime() / 1000);
  const sig = signFileId(secret, file.fileId, expires);
  return `${fileUrlBase(config)}/${file.fileId}${extensionFor(file.contentType)}?expires=${expires}&sig=${sig}`;
}

export type { SignatureCheck };

/** Checks the signature first (a forged expiry is 'invalid', not 'expired'), then the expiry. */
export function checkFileSignature(
  secret: string,
  fileId: string,
  expires: string | undefined,
  sig: string | undefined,
  now: Date = new Date(),
): SignatureCheck {
  return fileUrlSignature.check(secret, fileId, expires, sig, now);
}
