// What a tool does with bytes it produced: store them and describe the artifact the way the public
// browser.screenshot / browser.pdf results do (file_id, signed file_url, expiry fields).
import { resolveSecret } from '../auth/secret.js';
import type { ToolContext } from '../registry/define-tool.js';
import { ARTIFACT_TTL_MS } from './artifact-store.js';
import { artifactStoreService } from './service.js';
import { signedFileUrl } from './signed-url.js';

export { artifactLinkShape } from './artifact-link.js';

export interface ArtifactLink {
  file_id: string;
  file_url: string;
  content_type: string;
  file_url_notes: string;
  expires_at: string;
  expires_in_days: number;
}

export async function publishArtifact(ctx: Pick<ToolContext, 'config' | 'use'>, bytes: Uint8Array, contentType: string): Promise<ArtifactLink> {
  const store = await ctx.use(artifactStoreService);
  const meta = await store.put(bytes, contentType, { ttlMs: ARTIFACT_TTL_MS });
  return {
    file_id: meta.fileId,
    file_url: signedFileUrl(ctx.config, resolveSecret(ctx.config), meta),
    content_type: meta.contentType,
    file_url_notes: 'Signed link valid for 24 hours (until expires_at); the file is deleted after that. Download it if you need it longer.',
    expires_at: meta.expiresAt.toISOString(),
    expires_in_days: Math.round(ARTIFACT_TTL_MS / 86_400_000),
  };
}
