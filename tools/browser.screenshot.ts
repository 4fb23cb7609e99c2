import { z } from 'zod';
import { captureScreenshot } from '../src/browser/capture.js';
import { defineBrowserTool } from '../src/browser/define-browser-tool.js';
import { imageSize } from '../src/browser/image-size.js';
import { exactlyOneSource, htmlInput, pageUrlInput, waitInput } from '../src/browser/input-schemas.js';
import { artifactLinkShape, publishArtifact } from '../src/storage/publish.js';

/** Chromium cannot capture taller images reliably; longer pages are cut at this height. */
const MAX_CAPTURE_HEIGHT = 16_384;
const CONTENT_TYPES = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;

const input = z
  .strictObject({
    url: pageUrlInput.optional(),
    html: htmlInput.optional(),
    width: z.number().int().min(100).max(3840).default(1280).describe('Viewport width in CSS pixels, 100-3840. Default 1280.'),
    height: z.number().int().min(100).max(2160).default(800).describe('Viewport height in CSS pixels, 100-2160. Default 800.'),
    full_page: z.boolean().default(false).describe('Capture the whole page height (cut at 16384 px) instead of the viewport. Default false.'),
    format: z.enum(['png', 'jpeg', 'webp']).default('png').describe('Image format. Default png.'),
    quality: z.number().int().min(1).max(100).optional().describe('1-100, jpeg and webp only. Default 80.'),
    transparent: z.boolean().default(false).describe('Transparent background where the page sets none; png only. Default false.'),
    wait: waitInput,
  })
  .superRefine(exactlyOneSource)
  .superRefine((v, ctx) => {
    if (v.quality !== undefined && v.format === 'png') ctx.addIssue({ code: 'custom', path: ['quality'], message: 'applies to jpeg and webp only, not png' });
    if (v.transparent && v.format !== 'png') ctx.addIssue({ code: 'custom', path: ['transparent'], message: `is available for png only, not ${v.format}` });
  });

const output = z.object({
  ...artifactLinkShape,
  width: z.number().int().describe('Image width in pixels.'),
  height: z.number().int().describe('Image height in pixels.'),
  bytes: z.number().int().describe('Image size in bytes.'),
});

export default defineBrowserTool({
  name: 'browser.screenshot',
  title: 'Screenshot a web page',
  description:
    'Renders a web page (url) or an HTML document (html; give exactly one) in headless Chromium and returns a signed link to the image, valid 24 hours. ' +
    'Viewport in CSS px (default 1280x800); full_page captures the whole height (up to 16384 px). ' +
    'Formats png (optionally transparent), jpeg or webp (quality 1-100, default 80). Pages may only reach public addresses.',
  input,
  output,
  price: '0.005',
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  timeoutMs: 60_000,
  concurrency: 8,
  example: { url: 'https://example.com/', width: 1280, height: 800, format: 'png' },
  viewport: (i) => ({ width: i.width, height: i.height }),
  async render(page, i, { ctx, budget, stage }) {
    const image = await captureScreenshot(page, {
      format: i.format,
      quality: i.quality,
      fullPage: i.full_page,
      maxHeight: MAX_CAPTURE_HEIGHT,
      omitBackground: i.transparent,
      timeoutMs: budget.left(),
    });
    const { width, height } = imageSize(image);
    stage('storing');
    const link = await publishArtifact(ctx, image, CONTENT_TYPES[i.format]);
    return { ...link, width, height, bytes: image.byteLength };
  },
});
