// browser.markdown's inputs and output for a URL that is a document (PDF, DOCX, …) rather than a page.
// Described tersely, and the page range checked by a refinement rather than a published pattern:
// tools/list is sent to the model on every turn.
import { z } from 'zod';
import { PAGE_RANGE_PATTERN } from '../extract/document/page-range.js';

/** Inputs that only matter when the URL is a document. */
export const documentInputShape = {
  pages: z
    .string()
    .refine((s) => s.length <= 200 && PAGE_RANGE_PATTERN.test(s), { message: 'must look like "3", "1-5", "2,4,9-12" or "10-"' })
    .optional()
    .describe('PDF pages, e.g. "1-5,9".'),
  page_breaks: z.boolean().default(false).describe('PDF: <!-- page N --> at each page.'),
};

export const documentOutputShape = {
  document: z
    .object({
      type: z.enum(['pdf', 'docx', 'xlsx', 'csv', 'text', 'json', 'xml', 'feed']),
      pages: z.number().int().optional(),
      author: z.string().optional(),
      needs_ocr: z.boolean().optional(),
    })
    .optional(),
};

/** What is known about the page or file besides its body ("" where nothing is). */
export const extractedMetadataShape = {
  byline: z.string(),
  published_at: z.string(),
  lang: z.string(),
  site_name: z.string(),
  excerpt: z.string(),
  word_count: z.number().int(),
};
