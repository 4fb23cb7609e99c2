// Pages whose scripts navigate after they have loaded (browser.script-navigation.test.ts): each shows the
// same article, so whichever document a tool ends up reading (the one opened, or the copy of the article a
// script sent it to) holds the article's text; only a failed task or another page's text is wrong.
const page = (title: string, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;

/** Sentences of the article, as the tests look for them. */
export const NAV_ARTICLE_TEXT = 'the keeper climbed the hundred and twelve steps of the lighthouse';
export const NAV_LINK_PATH = '/nav/harbour-log';

// Long enough that reading it takes a while: a navigation then commits in the middle of a read.
const ARTICLE = `<main><article><h1>The lighthouse at the end of the pier</h1>${Array.from(
  { length: 400 },
  (_, i) =>
    `<p>Night ${i + 1}: at dusk ${NAV_ARTICLE_TEXT}, trimmed the wick, wound the clockwork that turns the lens, and wrote the weather in the log before the first ship passed.</p>`,
).join('')}<p>The <a href="${NAV_LINK_PATH}">harbour log</a> has the ships of every night.</p></article></main>`;

const navigatesAfterLoad = (title: string, script: string, head = '') => page(title, `${ARTICLE}<script>${script}</script>`, head);

/** What the short error notice says (pages below send the browser to it, or swap it in). */
export const NAV_NOTICE_TEXT = 'Something went wrong. Please try again later.';

const NOTICE_BODY = `<p>${NAV_NOTICE_TEXT}</p>`;

/**
 * Pages that leave the article for a short generic notice after load (browser.script-navigation.test.ts):
 * a meta refresh (0 s and 1 s), a script's location.replace, a script that swaps the body. Only the HTML
 * the server sent for the page opened still holds the article.
 */
export const NOTICE_PAGES: Record<string, string> = {
  '/nav/notice': page('Error', NOTICE_BODY),
  '/nav/refresh-0-to-notice': page('Refresh to notice', ARTICLE, '<meta http-equiv="refresh" content="0; url=/nav/notice">'),
  '/nav/refresh-1-to-notice': page('Refresh to notice later', ARTICLE, '<meta http-equiv="refresh" content="1; url=/nav/notice">'),
  '/nav/replace-to-notice': navigatesAfterLoad('Replace with notice', `addEventListener('load', () => { location.replace('/nav/notice'); });`),
  '/nav/swap-to-notice': navigatesAfterLoad(
    'Swap in notice',
    `addEventListener('load', () => { const b = document.createElement('body'); b.innerHTML = ${JSON.stringify(NOTICE_BODY)}; document.body = b; });`,
  ),
};

// A main thread busy for 60 ms in every frame: waiting for two frames (after a scroll step) takes long
// enough that a navigation the scroll started commits while the wait is in flight.
const SLOW_FRAMES = `(function frame() { const t = performance.now(); while (performance.now() - t < 60); requestAnimationFrame(frame); })();`;

/**
 * Pages that navigate while the caller's actions or scrolling work on them (browser.script-navigation-
 * actions.test.ts): each ends at the article.
 */
export const ACTION_NAV_PAGES: Record<string, string> = {
  // A button whose click sends the page to the article a moment later (a step after it is then in flight).
  '/nav/click-navigates': page(
    'Click navigates',
    `<h1>Start</h1><p>Press the button to read the article.</p><button id="go" onclick="setTimeout(() => { location.href = '/nav/article?from=click'; }, 200)">Read</button>`,
  ),
  // A tall list whose first scroll sends the page to the article.
  '/nav/scroll-navigates': page(
    'Scroll navigates',
    `<h1>List</h1>${Array.from({ length: 200 }, (_, i) => `<p>Item ${i + 1}</p>`).join('')}<script>${SLOW_FRAMES}
addEventListener('scroll', () => { if (!window.__went) { window.__went = true; location.href = '/nav/article?from=scroll'; } }, { passive: true });</script>`,
  ),
  // An empty page (blank to a screenshot) that sends the browser to the article after load.
  '/nav/blank-navigates': page(
    'Blank',
    `<script>addEventListener('load', () => setTimeout(() => { location.href = '/nav/article?from=blank'; }, 300));</script>`,
  ),
};

export const NAVIGATING_PAGES: Record<string, string> = {
  // Where the scripts below send the page: the same article at its canonical address.
  '/nav/article': page('The lighthouse', ARTICLE),
  '/nav/href-after-load': navigatesAfterLoad('Href after load', `addEventListener('load', () => setTimeout(() => { location.href = '/nav/article'; }, 0));`),
  '/nav/replace-in-load': navigatesAfterLoad('Replace in load', `addEventListener('load', () => { location.replace('/nav/article?from=load'); });`),
  // Every load reloads the page: the page never stops navigating.
  '/nav/reload-loop': navigatesAfterLoad('Reload loop', `addEventListener('load', () => { location.reload(); });`),
  // Five hops, each one page loading and then sending the browser to the next.
  '/nav/hops': navigatesAfterLoad(
    'Hops',
    `addEventListener('load', () => { const n = Number(new URLSearchParams(location.search).get('n') ?? 5); location.href = n > 0 ? '/nav/hops?n=' + (n - 1) : '/nav/article'; });`,
  ),
  '/nav/form-submit': page(
    'Form submit',
    `${ARTICLE}<form action="/nav/article" method="get"><input type="hidden" name="via" value="form"></form><script>addEventListener('load', () => document.forms[0].submit());</script>`,
  ),
  // After load, a pushState and then a navigation to the copy (a client-side router giving up).
  '/nav/history-then-href': navigatesAfterLoad(
    'History then href',
    `addEventListener('load', () => { history.pushState({}, '', '/nav/history-then-href#routed'); setTimeout(() => { location.href = '/nav/article?from=router'; }, 0); });`,
  ),
  '/nav/meta-refresh': page('Meta refresh', ARTICLE, '<meta http-equiv="refresh" content="0; url=/nav/article?from=refresh">'),
  // A navigation the network guard refuses (canary.fixture.test resolves to 127.0.0.2, outside the allowlist).
  '/nav/blocked-after-load': navigatesAfterLoad(
    'Blocked after load',
    `addEventListener('load', () => setTimeout(() => { location.href = 'http://canary.fixture.test:' + location.port + '/'; }, 0));`,
  ),
  ...NOTICE_PAGES,
  ...ACTION_NAV_PAGES,
};
