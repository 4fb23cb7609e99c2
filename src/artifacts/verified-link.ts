// Which artifact links in a task result the service itself made. A result is data a tool returned, and
// some tools return names the caller chose (browser.scrape's select), so a `file_id` in a result proves
// nothing: only a `file_url` signed with our secret for exactly that id does. Whoever reads an artifact
// through a verified link could already download it with that link, so serving it (MCP resources/read, the
// inline image, the console preview) gives nobody another caller's file.
import type { Config } from '../config.js';
import { isFileId } from './artifact-store.js';
import { signedFileUrl } from './signed-url.js';

export interface VerifiedArtifact {
  fileId: string;
  contentType: string;
  fileUrl: string;
  bytes?: number;
  expiresAt?: string;
}

export type ArtifactLinkVerifier = (value: unknown) => VerifiedArtifact | undefined;

type LinkConfig = Pick<Config, 'storageUrl' | 'publicUrl'>;

/**
 * A verifier for one configuration: a value is an artifact only when its `file_url` is, character for
 * character, the signed URL this service gives for its `file_id` and `content_type` and has not expired.
 */
export function artifactLinkVerifier(config: LinkConfig, secret: string, now: () => number = Date.now): ArtifactLinkVerifier {
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const r = value as Record<string, unknown>;
    const { file_id: fileId, file_url: fileUrl, content_type: contentType } = r;
    if (typeof fileId !== 'string' || typeof fileUrl !== 'string' || typeof contentType !== 'string' || !isFileId(fileId)) return undefined;
    const expires = expiresParam(fileUrl);
    if (expires === undefined || expires * 1000 <= now()) return undefined;
    if (signedFileUrl(config, secret, { fileId, contentType, expiresAt: new Date(expires * 1000) }) !== fileUrl) return undefined;
    return {
      fileId,
      contentType,
      fileUrl,
      ...(typeof r.bytes === 'number' ? { bytes: r.bytes } : {}),
      ...(typeof r.expires_at === 'string' ? { expiresAt: r.expires_at } : {}),
    };
  };
}

function expiresParam(url: string): number | undefined {
  const m = /[?&]expires=(\d{1,12})(?:&|$)/.exec(url);
  return m ? Number(m[1]) : undefined;
}

/** Verified artifact links anywhere in a value (nested objects and arrays), in document order. */
export function verifiedArtifactsIn(value: unknown, verify: ArtifactLinkVerifier, out: VerifiedArtifact[] = []): VerifiedArtifact[] {
  if (Array.isArray(value)) for (const v of value) verifiedArtifactsIn(v, verify, out);
  else if (value && typeof value === 'object') {
    const found = verify(value);
    if (found) out.push(found);
    for (const v of Object.values(value)) if (v && typeof v === 'object') verifiedArtifactsIn(v, verify, out);
  }
  return out;
}
