// Answers a GET for a signed artifact URL without any HTTP framework: the Express route in
// src/http/files.ts and any other front door only copy status, headers and body.
import type { ErrorBody } from '../errors.js';
import { extensionFor, isFileId, type ArtifactStore } from './artifact-store.js';
import { checkFileSignature } from './signed-url.js';

export interface ArtifactResponse {
  status: number;
  headers: Record<string, string>;
  /** Artifact bytes on 200, an error body otherwise. */
  body: Buffer | ErrorBody;
}

const NAME = /^\/?(file_[0-9a-z]+)(\.[a-z0-9]{1,5})?$/;

function error(status: number, code: string, message: string): ArtifactResponse {
  return {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
    body: { error: message, code, retry: false },
  };
}

/**
 * `name` is the last path segment (`file_<id>` with an optional extension); `query` holds `expires` and `sig`.
 * 403 for a missing or wrong signature, 410 for an expired URL, 404 for an unknown artifact.
 */
export async function serveArtifact(
  store: ArtifactStore,
  secret: string,
  name: string,
  query: Record<string, unknown>,
  now: Date = new Date(),
): Promise<ArtifactResponse> {
  const match = NAME.exec(name);
  const fileId = match?.[1];
  if (!fileId || !isFileId(fileId)) return error(404, 'NOT_FOUND', 'No such file.');
  const expires = typeof query.expires === 'string' ? query.expires : undefined;
  const sig = typeof query.sig === 'string' ? query.sig : undefined;
  const check = checkFileSignature(secret, fileId, expires, sig, now);
  if (check === 'invalid')
    return error(403, 'INVALID_SIGNATURE', 'This file link is not valid: its signature does not match. Use the file_url exactly as returned.');
  if (check === 'expired') return error(410, 'EXPIRED', 'This file link has expired (links last 24 hours). Run the task again for a new one.');
  const remaining = Math.max(0, Math.floor((Number(expires) * 1000 - now.getTime()) / 1000));
  // Object stores can hand the download to the client (a presigned URL), so the bytes skip this node.
  const direct = store.downloadUrl ? await store.downloadUrl(fileId, Math.max(1, remaining)) : null;
  if (direct) return { status: 302, headers: { Location: direct, 'Cache-Control': 'no-store' }, body: Buffer.alloc(0) };
  const artifact = await store.get(fileId);
  if (!artifact) return error(404, 'NOT_FOUND', 'No such file: it was deleted or never existed.');
  return {
    status: 200,
    headers: {
      'Content-Type': artifact.meta.contentType,
      'Content-Length': String(artifact.body.byteLength),
      'Content-Disposition': `inline; filename="${fileId}${extensionFor(artifact.meta.contentType)}"`,
      'Cache-Control': `private, max-age=${remaining}, immutable`,
      'X-Content-Type-Options': 'nosniff',
    },
    body: artifact.body,
  };
}
