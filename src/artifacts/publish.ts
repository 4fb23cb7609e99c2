// What a tool does with bytes it produced: store them and describe the artifact the way the public
// browser.screenshot / browser.pdf results do (file_id, signed file_url, expiry fields).
import { z } from 'zod';
import { resolveSecret } from '../auth/secret.js';
import type { ToolContext } from '../registry/define-tool.js';
import { ARTIFACT_TTL_MS } from './artifact-store.js';
import { artifactStoreService } from './service.js';
import { signedFileUrl } from './signed-url.js';

/** The artifact fields shared by the screenshot and PDF outputs. */
export const artifactLinkShape = {
  file_id: z.string().describe('Stored artifact id, form file_<id>.'),
  file_url: z.string().describe('Signed URL of the artifact, valid 24 hours.'),
  content_type: z.string().describe('MIME type of the artifact.'),
  file_url_notes: z.string().describe('Note on the URL lifetime.'),
  expires_at: z.string().describe('ISO 8601 date-time when the URL expires.'),
  expires_in_days: z.number().int().describe('Days until the URL expires (1).'),
};

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
