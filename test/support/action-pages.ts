// Fixture pages for actions, lazy content and overlays, served on loopback: each built from the public
// structure such pages share (a "show more" button, a search form, an infinite list fetched on scroll,
// lazy images, consent dialogs as consent managers draw them), not copied from any site.
import type { IncomingMessage, ServerResponse } from 'node:http';

const page = (body: string, head = '') => `<!doctype html><html><head><meta charset="utf-8"><title>Fixture</title>${head}</head><body>${body}</body></html>`;

/** A page needing a click, a typed search and a scroll before it shows what a reader wants. */
const INTERACTIVE = page(`
<main>
  <h1>Recipes</h1>
  <p id="intro">A short intro.</p>
  <button id="more" onclick="document.getElementById('extra').hidden = false; this.remove()">Show more</button>
  <section id="extra" hidden><p>The hidden paragraph about sourdough starters.</p></section>
  <form id="search" onsubmit="event.preventDefault(); fetch('/api/search?q=' + encodeURIComponent(document.getElementById('q').value)).then(r => r.text()).then(t => { const p = document.createElement('p'); p.id = 'found'; p.textContent = t; document.getElementById('results').append(p); })">
    <label>Search <input id="q" name="q"></label>
  </form>
  <div id="results"></div>
  <div style="height: 2400px"></div>
  <div id="sentinel"></div>
  <div id="tail"></div>
</main>
<script>
  new IntersectionObserver((entries, obs) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    obs.disconnect();
    fetch('/api/tail').then((r) => r.text()).then((t) => { const p = document.createElement('p'); p.textContent = t; document.getElementById('tail').append(p); });
  }).observe(document.getElementById('sentinel'));
</script>`);

/** An infinite list: each time the end comes into view, the next batch is fetched, five batches in all. */
const INFINITE = page(`
<main><h1>Feed</h1><ol id="list"></ol><div id="end" style="height:1px"></div></main>
<script>
  let batch = 0;
  const list = document.getElementById('list');
  const load = () => fetch('/api/batch?n=' + batch).then((r) => r.json()).then((items) => {
    for (const text of items) { const li = document.createElement('li'); li.style.height = '300px'; li.textContent = text; list.append(li); }
    batch++;
  });
  load().then(() => new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting) && batch < 5) load();
  }).observe(document.getElementById('end')));
</script>`);

/** Images with loading=lazy far below the fold. */
const LAZY_IMAGES = page(
  `<h1>Gallery</h1>${Array.from({ length: 6 }, (_, i) => `<div style="height:1200px"><img loading="lazy" width="40" height="40" alt="photo ${i}" src="/img/${i}.png"></div>`).join('')}`,
);

/** A consent dialog with accept, reject and settings, as consent managers draw it (role=dialog, fixed). */
const CONSENT_REJECT = page(`
<article><h1>News story</h1><p id="story">The story text a reader came for.</p></article>
<div id="cmp" role="dialog" aria-modal="true" aria-label="Privacy choices" style="position:fixed;inset:0;z-index:99999;background:rgba(0,0,0,.6)">
  <div style="background:#fff;margin:20vh auto;width:400px;padding:20px">
    <p>We use cookies to improve your experience.</p>
    <button onclick="fetch('/api/choice?accept'); document.getElementById('cmp').remove()">Accept all</button>
    <button onclick="fetch('/api/choice?settings')">Settings</button>
    <button onclick="fetch('/api/choice?reject'); document.getElementById('cmp').remove()">Reject all</button>
  </div>
</div>`);

/** A German bottom bar with "Nur notwendige" (necessary only) beside "Alle akzeptieren". */
const CONSENT_NECESSARY_DE = page(`
<article><h1>Artikel</h1><p>Der Text des Artikels.</p></article>
<div class="cookie-bar" style="position:fixed;bottom:0;left:0;right:0;z-index:5000;background:#eee;padding:10px">
  <span>Wir verwenden Cookies.</span>
  <a href="#" role="button" onclick="event.preventDefault(); fetch('/api/choice?accept')">Alle akzeptieren</a>
  <a href="#" role="button" onclick="event.preventDefault(); fetch('/api/choice?necessary'); this.parentElement.remove()">Nur notwendige</a>
</div>`);

/** Only accept and a close button: the close button is used, never accept. */
const CONSENT_CLOSE_ONLY = page(`
<article><h1>Story</h1><p>Text.</p></article>
<div id="banner" style="position:fixed;top:0;left:0;right:0;z-index:3000;background:#eee">
  <p>This site uses cookies.</p>
  <button onclick="fetch('/api/choice?accept'); this.parentElement.remove()">Accept</button>
  <button aria-label="Close" onclick="fetch('/api/choice?close'); this.parentElement.remove()">×</button>
</div>`);

/** A consent manager drawing its dialog in a frame of its own, inside a fixed container. */
const CONSENT_FRAME = page(`
<article><h1>Framed</h1><p>Body text.</p></article>
<div id="cmp-wrap" style="position:fixed;bottom:0;left:0;right:0;height:200px;z-index:100000">
  <iframe title="Consent message" src="/cmp-frame" style="width:100%;height:100%;border:0"></iframe>
</div>`);
const CMP_FRAME = page(`<p>We and our partners use cookies and ask your consent.</p>
<button onclick="fetch('/api/choice?accept')">I agree</button>
<button onclick="fetch('/api/choice?reject')">Reject all</button>`);

/** A newsletter wall: a fixed, high z-index layer over the whole viewport, page scrolling frozen. */
const MODAL_WALL = page(
  `<article><h1>Long read</h1><p>Paragraph one.</p><div style="height:3000px"></div></article>
<div id="backdrop" style="position:fixed;inset:0;z-index:2000;background:rgba(0,0,0,.8)"><div style="background:#fff;width:300px;margin:30vh auto">Subscribe to our newsletter! <input placeholder="email"></div></div>
<header id="site-header" style="position:fixed;top:0;left:0;right:0;height:40px;z-index:10;background:#fff"><a href="/privacy">Privacy</a> <button>Menu</button></header>`,
  '<style>html,body{overflow:hidden}</style>',
);

/** Form controls for the fill, select, hover and press actions. */
const CONTROLS = page(`
<label>Name <input id="name"></label>
<select id="size"><option value="s">Small</option><option value="m">Medium</option><option value="l">Large</option></select>
<div id="hover-me" onmouseenter="document.getElementById('tip').textContent = 'tip shown'">Hover me</div>
<p id="tip"></p>
<p id="keys"></p>
<div id="menu" oncontextmenu="event.preventDefault(); this.textContent = 'context menu opened'">Right-click</div>
<ul><li class="c" onclick="this.textContent='clicked'">a</li><li class="c" onclick="this.textContent='clicked'">b</li><li class="c" onclick="this.textContent='clicked'">c</li></ul>
<div id="spinner">Loading…</div>
<script>
  document.addEventListener('keydown', (e) => { document.getElementById('keys').textContent += e.key + ' '; });
  document.getElementById('name').addEventListener('keydown', (e) => e.stopPropagation());
</script>`);

/** A page with a link to another page (an action's navigation). */
const LINK_START = page(`<h1>Start</h1><p><a id="go" href="/link-target?from=start">Go on</a></p>`);
const LINK_TARGET = page(`<h1>Target page</h1><p>The page the link led to.</p>`);

/** A solid red image whose loading starts once the page has loaded, and which the server sends only after a delay. */
const SLOW_IMAGE =
  page(`<h1 style="background:#0033cc;color:#fff;font-size:64px">Slow image</h1><p>${'Text drawn at once, so the page is not blank while the image loads. '.repeat(20)}</p><img id="slow" width="400" height="300" style="display:block">
<script>addEventListener('load', () => { document.getElementById('slow').src = '/slow-image.svg'; });</script>`);
const RED_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#ff0000"/></svg>';
/** How long the server holds the slow image back, ms. */
export const SLOW_IMAGE_DELAY_MS = 3500;

export function actionPagesHandler(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://fixture');
  const html = (body: string) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  };
  switch (url.pathname) {
    case '/interactive':
      return html(INTERACTIVE);
    case '/infinite':
      return html(INFINITE);
    case '/lazy-images':
      return html(LAZY_IMAGES);
    case '/consent-reject':
      return html(CONSENT_REJECT);
    case '/consent-necessary-de':
      return html(CONSENT_NECESSARY_DE);
    case '/consent-close-only':
      return html(CONSENT_CLOSE_ONLY);
    case '/consent-frame':
      return html(CONSENT_FRAME);
    case '/cmp-frame':
      return html(CMP_FRAME);
    case '/modal-wall':
      return html(MODAL_WALL);
    case '/controls':
      return html(CONTROLS);
    case '/link-start':
      return html(LINK_START);
    case '/link-target':
      return html(LINK_TARGET);
    case '/slow-image':
      return html(SLOW_IMAGE);
    case '/slow-image.svg':
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'image/svg+xml' });
        res.end(RED_SVG);
      }, SLOW_IMAGE_DELAY_MS);
      return;
    case '/api/search':
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.end(`Results for ${url.searchParams.get('q')}: the rye bread recipe.`);
    case '/api/tail':
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.end('The closing paragraph loaded on scroll.');
    case '/api/batch': {
      const n = Number(url.searchParams.get('n') ?? 0);
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify(Array.from({ length: 5 }, (_, i) => `item ${n * 5 + i + 1}`)));
    }
    case '/api/choice':
      res.writeHead(204);
      return void res.end();
    default:
      if (url.pathname.startsWith('/img/')) {
        // A 1×1 PNG.
        res.writeHead(200, { 'content-type': 'image/png' });
        return void res.end(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'));
      }
      res.writeHead(404);
      res.end();
  }
}
