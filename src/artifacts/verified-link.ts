// Which artifact links in a task result the service itself made. A result is data a tool returned, and
// some tools return names the caller chose (browser.scrape's select), so a `file_id` in a result proves
// nothing: only a `file_url` signed with our secret for exactly that id does. Whoever reads an artifact
// through a verified link could already download it with that link, so serving it (MCP resources/read, the
// inline image, the console preview) gives nobody another caller's file.
import { extensionFor, isFileId } from './artifact-store.js';
import { checkFileSignature } from './signed-url.js';

export interface VerifiedArtifact {
  fileId: string;
  contentType: string;
  fileUrl: string;
  bytes?: number;
  expiresAt?: string;
}

export type ArtifactLinkVerifier = (value: unknown) => VerifiedArtifact | undefined;

/**
 * A verifier for one secret: a value is an artifact only when its `file_url` names its `file_id` (with the
 * extension of its `content_type`) and carries this service's unexpired signature for that id. The base of
 * the URL is not compared: it changes with PUBLIC_URL (and per session for stdio's own file server), and a
 * valid signature cannot be had without the link the service gave out.
 */
export function artifactLinkVerifier(secret: string, now: () => number = Date.now): ArtifactLinkVerifier {
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const r = value as Record<string, unknown>;
    const { file_id: fileId, file_url: fileUrl, content_type: contentType } = r;
    if (typeof fileId !== 'string' || typeof fileUrl !== 'string' || typeof contentType !== 'string' || !isFileId(fileId)) return undefined;
    let url: URL;
    try {
      url = new URL(fileUrl);
    } catch {
      return undefined;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    if (!url.pathname.endsWith(`/${fileId}${extensionFor(contentType)}`)) return undefined;
    const check = checkFileSignature(secret, fileId, url.searchParams.get('expires') ?? undefined, url.searchParams.get('sig') ?? undefined, new Date(now()));
    if (check !== 'valid') return undefined;
    return {
      fileId,
      contentType,
      fileUrl,
      ...(typeof r.bytes === 'number' ? { bytes: r.bytes } : {}),
      ...(typeof r.expires_at === 'string' ? { expiresAt: r.expires_at } : {}),
    };
  };
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
