// The artifact fields of the screenshot and PDF outputs, on their own so a tool's schema can name them
// without loading the artifact store.
import { z } from 'zod';

/** The artifact fields shared by the screenshot and PDF outputs. */
export const artifactLinkShape = {
  file_id: z.string().describe('Stored artifact id, form file_<id>.'),
  file_url: z.string().describe('Signed URL of the artifact, valid 24 hours.'),
  content_type: z.string().describe('MIME type of the artifact.'),
  file_url_notes: z.string().describe('Note on the URL lifetime.'),
  expires_at: z.string().describe('ISO 8601 date-time when the URL expires.'),
  expires_in_days: z.number().int().describe('Days until the URL expires (1).'),
};
