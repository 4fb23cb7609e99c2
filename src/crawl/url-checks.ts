// The submission checks of the site tools, whose input names one start URL: a blocked scheme or literal
// address is refused before payment, a name resolving to a blocked address once the caller has shown how
// they pay (403 BLOCKED_TARGET either way), as for the browser tools.
import { admitPageUrl, precheckPageUrl } from '../browser/define-browser-tool.js';
import type { SubmitContext } from '../registry/define-tool.js';

export const startUrlChecks = {
  precheck: (ctx: SubmitContext, input: { url: string }) => precheckPageUrl(ctx, input.url),
  admit: (ctx: SubmitContext, input: { url: string }) => admitPageUrl(ctx, input.url),
};
