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

const SERVICE_NOTE = 'Signed link valid for 24 hours (until expires_at); the file is deleted after that. Download it if you need it longer.';
// Over stdio the link is served by the session's own loopback file server, gone when the session ends,
// while the file itself stays in the store (and readable as the task's MCP resource) until expires_at.
const SESSION_NOTE =
  'Signed link served by this MCP session: it stops working when the session ends. The file is kept until expires_at ' +
  '(24 hours) and stays readable as the resource agent-utility://tasks/<task_id>/artifact. Download it if you need it longer.';

export async function publishArtifact(ctx: Pick<ToolContext, 'config' | 'use'>, bytes: Uint8Array, contentType: string): Promise<ArtifactLink> {
  const store = await ctx.use(artifactStoreService);
  const meta = await store.put(bytes, contentType, { ttlMs: ARTIFACT_TTL_MS });
  return {
    file_id: meta.fileId,
    file_url: signedFileUrl(ctx.config, resolveSecret(ctx.config), meta),
    content_type: meta.contentType,
    file_url_notes: ctx.config.sessionFileServer ? SESSION_NOTE : SERVICE_NOTE,
    expires_at: meta.expiresAt.toISOString(),
    expires_in_days: Math.round(ARTIFACT_TTL_MS / 86_400_000),
  };
}
