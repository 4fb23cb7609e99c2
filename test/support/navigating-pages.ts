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
};
