// A page script can blank what the server sent: an error notice swapped in for the article, a consent wall
// drawn over an emptied body, a client-side router that failed. When the rendered page yields almost no
// Markdown while the server's own HTML (before any script ran) yields far more, that HTML is the page the
// reader was sent and is converted instead; browser.markdown then says `source: 'server'`.
import type { MarkdownResult } from './markdown.js';

/** What the decision reads of a result. */
type Counted = Pick<MarkdownResult, 'word_count'>;

/** A rendered result with fewer words than this is thin enough to ask the server's HTML… */
export const THIN_WORDS = 50;
/** …which is used when it holds at least this many times as many words (and is not thin itself). */
export const SERVER_MIN_GAIN = 4;

/** Whether the rendered page's result is thin enough that the server's HTML is worth converting. */
export function renderedIsThin(rendered: Counted): boolean {
  return rendered.word_count < THIN_WORDS;
}

/** Whether the server's HTML holds far more than the rendered page did: then it is the page to return. */
export function preferServerHtml(rendered: Counted, server: Counted): boolean {
  return renderedIsThin(rendered) && server.word_count >= THIN_WORDS && server.word_count >= SERVER_MIN_GAIN * Math.max(1, rendered.word_count);
}
