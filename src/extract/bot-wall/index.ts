// Bot-wall detection as the browser tools and the crawler use it: a page's HTML and its response in, a
// task error (BLOCKED_BY_SITE, refunded) out when the page is a challenge, captcha or block page.
import { ToolError } from '../../errors.js';
import { classifyBotWall, WALL_MAX_TEXT_CHARS, type ResponseFacts, type WallVerdict } from './classify.js';
import { pageFacts } from './page-facts.js';

export { classifyBotWall, WALL_MAX_TEXT_CHARS, type ResponseFacts, type WallVerdict } from './classify.js';
export { pageFacts, type PageFacts } from './page-facts.js';

/** The task error code of a page the site answered with a bot wall. */
export const BLOCKED_BY_SITE = 'BLOCKED_BY_SITE';

export function detectBotWall(html: string, response: ResponseFacts): WallVerdict {
  // Only a rate limit is a wall at any length: for every other page, reading stops once it is known to be long.
  const stopAfterChars = response.status === 429 ? undefined : WALL_MAX_TEXT_CHARS;
  return classifyBotWall(response, pageFacts(html, stopAfterChars === undefined ? {} : { stopAfterChars }));
}

/** The task's failure for a walled page: not the caller's fault and not worth an immediate retry (refunded). */
export function botWallError(url: string, verdict: WallVerdict): ToolError {
  return new ToolError(
    `The site answered ${url} with a bot wall (a challenge, captcha or block page) instead of the page; nothing was captured. ` +
      `Signals: ${verdict.signals.join('; ')}.`,
    'permanent',
    { errorCode: BLOCKED_BY_SITE },
  );
}

/** Throws the task's failure when the page is a bot wall. */
export function assertNoBotWall(url: string, html: string, response: ResponseFacts): void {
  const verdict = detectBotWall(html, response);
  if (verdict.wall) throw botWallError(url, verdict);
}
