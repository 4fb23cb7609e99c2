import { z } from 'zod';
import { captureScreenshot } from '../src/browser/capture.js';
import { defineBrowserTool } from '../src/browser/define-browser-tool.js';
import { imageSize } from '../src/browser/image-size.js';
import { cssSelectorInput, exactlyOneSource, htmlInput, pageUrlInput, waitInput } from '../src/browser/input-schemas.js';
import { waitWhileBlank } from '../src/browser/blank-check.js';
import { IMAGES_WAIT_MS, waitForImages } from '../src/browser/actions/scroll-to-load.js';
import { cachedShape, PAGE_OPTIONS_REF, pageOptionsRefine, pageOptionsShape } from '../src/browser/page-options.js';
import { actionsOutputShape } from '../src/browser/actions/output.js';
import { ToolError } from '../src/errors.js';
import { lazyModule } from '../src/registry/lazy-module.js';
import { artifactLinkShape } from '../src/artifacts/artifact-link.js';

// The artifact store (local files, PostgreSQL or S3): loaded with the first file stored.
const publishModule = lazyModule(() => import('../src/artifacts/publish.js'));

/** Chromium cannot capture taller images reliably; longer pages are cut at this height. */
const MAX_CAPTURE_HEIGHT = 16_384;
const CONTENT_TYPES = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;

const input = z
  .strictObject({
    url: pageUrlInput.optional(),
    html: htmlInput.optional(),
    width: z.number().int().min(100).max(3840).default(1280),
    height: z.number().int().min(100).max(2160).default(800),
    full_page: z.boolean().default(false).describe('Max 16384 px tall.'),
    format: z.enum(['png', 'jpeg', 'webp']).default('png'),
    quality: z.number().int().min(1).max(100).optional().describe('jpeg/webp only. Default 80.'),
    transparent: z.boolean().default(false).describe('png only.'),
    selector: cssSelectorInput.optional().describe('Element to capture.'),
    clip: z
      .strictObject({
        x: z.number().min(0).max(MAX_CAPTURE_HEIGHT),
        y: z.number().min(0).max(MAX_CAPTURE_HEIGHT),
        width: z.number().min(1).max(MAX_CAPTURE_HEIGHT),
        height: z.number().min(1).max(MAX_CAPTURE_HEIGHT),
      })
      .optional()
      .describe('Rectangle to capture, CSS px.'),
    wait: waitInput,
    ...pageOptionsShape,
  })
  .superRefine(exactlyOneSource)
  .superRefine(pageOptionsRefine)
  .superRefine((v, ctx) => {
    if (v.quality !== undefined && v.format === 'png') ctx.addIssue({ code: 'custom', path: ['quality'], message: 'applies to jpeg and webp only, not png' });
    if (v.transparent && v.format !== 'png') ctx.addIssue({ code: 'custom', path: ['transparent'], message: `is available for png only, not ${v.format}` });
    if (v.selector !== undefined && v.clip !== undefined) ctx.addIssue({ code: 'custom', path: ['clip'], message: 'cannot be combined with selector' });
    for (const field of ['selector', 'clip'] as const) {
      if (v[field] !== undefined && v.full_page) ctx.addIssue({ code: 'custom', path: ['full_page'], message: `cannot be combined with ${field}` });
    }
  });

const output = z.object({
  ...artifactLinkShape,
  width: z.number().int().describe('Image width in pixels.'),
  height: z.number().int().describe('Image height in pixels.'),
  bytes: z.number().int().describe('Image size in bytes.'),
  blank: z.boolean().describe('true when the page still looked blank (one colour) after waiting for it to render.'),
  ...cachedShape,
  ...actionsOutputShape,
});

export default defineBrowserTool({
  name: 'browser.screenshot',
  title: 'Screenshot a web page',
  description:
    'Renders url or html (one) in Chromium; returns a signed image link. ' +
    'Pixels = CSS px × device scale. blank: still one colour after waiting. ' +
    PAGE_OPTIONS_REF,
  input,
  output,
  price: '0.005',
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  timeoutMs: 60_000,
  concurrency: 8,
  example: { url: 'https://example.com/', width: 1280, height: 800, format: 'png' },
  viewport: (i) => ({ width: i.width, height: i.height }),
  // A screenshot that stayed blank is not reused: the next request tries again.
  cacheable: (out) => !out.blank,
  async render(page, i, { ctx, budget, stage }) {
    let image: Buffer;
    let blank = false;
    if (i.selector !== undefined) {
      const element = page.locator(i.selector).first();
      try {
        await element.waitFor({ state: 'visible', timeout: budget.forLoading(Number.POSITIVE_INFINITY) });
      } catch (err) {
        if ((err as Error).name !== 'TimeoutError') throw err;
        throw new ToolError(`selector: no visible element matched "${i.selector.slice(0, 200)}".`, 'permanent');
      }
      image = await element.screenshot({
        type: i.format,
        ...(i.format === 'png' ? {} : { quality: i.quality ?? 80 }),
        omitBackground: i.transparent,
        animations: 'disabled',
        caret: 'hide',
        // Device pixels: with a device scale factor above 1 the image is CSS px times that factor.
        scale: 'device',
        timeout: budget.left(),
      });
    } else {
      if (i.clip === undefined) blank = await waitWhileBlank(page, budget, i.javascript);
      // A full-page image shows every image the page is loading, not their empty boxes.
      if (i.full_page) await waitForImages(page, Math.min(IMAGES_WAIT_MS, budget.forLoading(IMAGES_WAIT_MS)), false);
      image = await captureScreenshot(page, {
        format: i.format,
        quality: i.quality,
        fullPage: i.full_page,
        maxHeight: MAX_CAPTURE_HEIGHT,
        clip: i.clip,
        omitBackground: i.transparent,
        timeoutMs: budget.left(),
      });
    }
    const { width, height } = imageSize(image);
    stage('storing');
    const link = await (await publishModule()).publishArtifact(ctx, image, CONTENT_TYPES[i.format]);
    return { ...link, width, height, bytes: image.byteLength, blank };
  },
});
