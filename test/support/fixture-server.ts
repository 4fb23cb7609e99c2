// A loopback HTTP server with the pages the browser tools are tested against: JS-rendered content,
// held (slow) sub-resources the test releases, redirect chains, a huge page, an article with site chrome,
// links of every kind, pages probing private targets, cookies and storage, dialogs and popups.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  ARTICLE_SHOWN_BY_SCRIPT_HTML,
  CLOSED_TAB_HTML,
  FORM_WRAPPED_HTML,
  HIDDEN_UNTIL_SCRIPT_HTML,
  METADATA_IN_BODY_HTML,
  NEWS_WITH_COMMENTS_HTML,
  SKIP_LINK_HTML,
  STRUCTURE_HTML,
} from './markdown-pages.js';
import { NAVIGATING_PAGES } from './navigating-pages.js';
import { streamedPages } from './streamed-page.js';

const MARKDOWN_PAGES: Record<string, string> = {
  '/md/news-with-comments': NEWS_WITH_COMMENTS_HTML,
  '/md/form-wrapped': FORM_WRAPPED_HTML,
  '/md/skip-link': SKIP_LINK_HTML,
  '/md/structure': STRUCTURE_HTML,
  '/md/hidden-until-script': HIDDEN_UNTIL_SCRIPT_HTML,
  '/md/article-shown-by-script': ARTICLE_SHOWN_BY_SCRIPT_HTML,
  '/md/closed-tab': CLOSED_TAB_HTML,
  '/md/metadata-in-body': METADATA_IN_BODY_HTML,
};

export interface FixtureServer {
  port: number;
  /** http://127.0.0.1:PORT */
  origin: string;
  /** Every request path seen, in order. */
  readonly paths: string[];
  /** Every request seen, in order: path with query, and headers. */
  readonly requests: { url: string; headers: http.IncomingHttpHeaders }[];
  /** Resolves when a request for `/hold/<id>` has arrived (the browser is waiting on it). */
  held(id: string): Promise<void>;
  /** Lets `/hold/<id>` answer. */
  release(id: string): void;
  close(): Promise<void>;
}

const page = (title: string, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;

/** Pages for the browser tools' page options (browser.controls.test.ts). */
const CONTROL_PAGES: Record<string, string> = {
  // A single-page app that draws everything 800 ms after load: blank (white) until then.
  '/controls/late': page(
    'Late app',
    `<div id="root"></div><script>
  window.addEventListener('load', () => setTimeout(() => {
    document.getElementById('root').innerHTML = '<h1 id="late">Late content</h1><div style="height:300px;background:#c03"></div>';
  }, 800));
</script>`,
    '<style>body{margin:0;background:#fff}</style>',
  ),
  '/controls/echo': page('Echo', '<p id="cookie"></p><script>document.getElementById("cookie").textContent = document.cookie;</script>'),
  '/controls/device': page(
    'Device',
    `<p id="width"></p><p id="dpr"></p><p id="ua"></p><script>
  document.getElementById('width').textContent = String(innerWidth);
  document.getElementById('dpr').textContent = String(devicePixelRatio);
  document.getElementById('ua').textContent = navigator.userAgent;
</script>`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
  ),
  '/controls/images': page(
    'Images',
    '<p>Text with an image</p><img src="/controls/img.png" alt="dot" width="20" height="20">',
    '<link rel="stylesheet" href="/controls/style.css">',
  ),
  '/controls/box': page(
    'Box',
    '<div id="box" style="width:200px;height:120px;background:#08f;margin:30px 40px"></div><p>Around the box</p>',
    '<style>body{margin:0}</style>',
  ),
  '/controls/attrs': page(
    'Attributes',
    `<a class="x" href="/first">First</a> <a class="x" href="https://example.org/second">Second</a> <a class="x">No href</a>
<img id="logo" src="/logo.png" alt="Logo"> <p class="one">Only one</p>`,
  ),
  // An article whose script swaps in a short error notice at load: the server's HTML still holds it.
  '/controls/blanked': page(
    'Blanked article',
    `<article><h1>The orchard in winter</h1>${Array.from(
      { length: 4 },
      (_, i) =>
        `<p>Paragraph ${i + 1}: the old apple trees are pruned in the cold months, when the sap is down and the shape of each branch is easy to see; the cuttings are stacked by the wall for the spring fire.</p>`,
    ).join(
      '',
    )}<p>Our <a href="pruning/guide">pruning guide</a> explains how each cut is made, which branches go first, and why the centre of the tree is kept open to the light and the air all summer long.</p><figure><img src="/img/orchard.png" alt="The orchard" width="600" height="400"><figcaption>The orchard after pruning.</figcaption></figure></article>
<script>window.addEventListener('load', () => { document.body.innerHTML = '<p>Something went wrong. Please try again later.</p>'; });</script>`,
  ),
  '/controls/noscript': page('No script', '<p id="state">static</p><script>document.getElementById("state").textContent = "scripted";</script>'),
};

export const ARTICLE_HTML = page(
  'Growing Tomatoes at Home',
  `<div id="cookie-banner" class="cookie-consent">We use cookies to improve your experience. <a href="/privacy">Privacy</a> <span>Accept all</span></div>
<header class="site-header"><a href="/" class="logo">Garden Weekly</a>
  <nav><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/shop">Shop</a></li><li><a href="/about">About us</a></li></ul></nav>
</header>
<main>
  <article>
    <h1>Growing Tomatoes at Home</h1>
    <p class="byline">By Ada Gardener</p>
    <p>Tomatoes are among the most rewarding plants to grow in a home garden. With enough sun, regular water and a little patience, a single plant can produce fruit for months. This guide covers choosing a variety, planting, watering and the common problems you will meet.</p>
    <h2>Choosing a variety</h2>
    <p>Determinate varieties stay compact and ripen at once, which suits containers and canning. Indeterminate varieties keep growing and fruiting until frost, and need tall stakes or cages. Cherry tomatoes are the most forgiving for beginners.</p>
    <table>
      <tr><td>Variety</td><td>Type</td><td>Days to harvest</td></tr>
      <tr><td>Sungold</td><td>Cherry</td><td>57</td></tr>
      <tr><td>Roma</td><td>Paste | sauce</td><td>75</td></tr>
      <tr><td>Brandywine</td><td>Beefsteak</td><td>90</td></tr>
    </table>
    <h2>Watering schedule</h2>
    <p>Water deeply and evenly, about an inch per week, more in hot weather. Uneven watering causes blossom end rot and split fruit. The small script below computes how much water a bed needs each week from its area, so you can set a drip timer.</p>
    <pre><code class="language-python">def weekly_water_litres(area_m2, inches=1.0):
    # one inch of water over one square metre is 25.4 litres
    return area_m2 * 25.4 * inches
</code></pre>
    <p>Read more about <a href="/guides/soil">soil preparation</a> and <a href="https://extension.example.org/tomatoes">the extension service notes</a>. Mulch keeps the soil moist and prevents soil-borne diseases from splashing onto the leaves.</p>
    <ul><li>Stake plants early.</li><li>Pinch suckers on indeterminate plants.</li><li>Harvest when fully coloured.</li></ul>
  </article>
</main>
<aside class="sidebar"><h3>Popular posts</h3><ul><li><a href="/p/1">Ten easy herbs</a></li><li><a href="/p/2">Composting 101</a></li></ul></aside>
<footer class="site-footer"><p>© 2025 Garden Weekly. All rights reserved.</p><a href="/terms">Terms</a></footer>`,
);

// A page without an article: a list of cards where Readability would keep only a sliver.
export const LISTING_HTML = page(
  'Plant catalogue',
  `<header><nav><a href="/">Home</a> <a href="/catalogue">Catalogue</a></nav></header>
<div class="cards">
  <div class="card"><h3>Basil</h3><p>Warm-season herb.</p></div>
  <div class="card"><h3>Mint</h3><p>Spreads quickly; grow in pots.</p></div>
  <div class="card"><h3>Thyme</h3><p>Drought tolerant.</p></div>
</div>
<footer>Catalogue footer</footer>`,
);

export const LINKS_HTML = page(
  'Links of every kind',
  `<a href="/relative/page">Relative</a>
<a href="other.html">Sibling</a>
<a href="http://www.site.fixture.test/abs">Absolute same site</a>
<a href="https://blog.fixture.test/post">Other subdomain</a>
<a href="//cdn.external.test/lib.js">Protocol relative</a>
<a href="https://external.test/page?q=1#frag">External with fragment</a>
<a href="https://external.test/page?q=1">External duplicate</a>
<a href="#section">Fragment only</a>
<a href="javascript:void(0)">Script</a>
<a href="mailto:someone@site.test">Mail</a>
<a href="tel:+15555550100">Phone</a>
<a href="/relative/page">Relative again</a>
<a href="/img-link"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="Image link"></a>
<a href="/empty-first"></a><a href="/empty-first">Filled later</a>
<map name="m"><area href="/area-target" alt="Area link" shape="rect" coords="0,0,1,1"></map>`,
);

export const SCRAPE_HTML = page(
  'Scrape me',
  `<h1>  Product page  </h1>
<ul><li class="price">$10</li><li class="price"> $20 </li><li class="price">$30</li></ul>
<p id="note">Only <b>one</b> note.</p>
<div id="later"></div>
<script>document.getElementById('later').textContent = 'Added by script';</script>`,
);

export async function startFixtureServer(): Promise<FixtureServer> {
  const paths: string[] = [];
  const requests: { url: string; headers: http.IncomingHttpHeaders }[] = [];
  const releases = new Map<string, () => void>();
  const arrivals = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  const arrival = (id: string) => {
    let a = arrivals.get(id);
    if (!a) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      a = { promise, resolve };
      arrivals.set(id, a);
    }
    return a;
  };
  const releaseWaiters = new Map<string, Promise<void>>();
  const releaseFor = (id: string) => {
    let p = releaseWaiters.get(id);
    if (!p) {
      p = new Promise<void>((r) => releases.set(id, r));
      releaseWaiters.set(id, p);
    }
    return p;
  };

  const streamed = streamedPages();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture.invalid');
    paths.push(url.pathname);
    requests.push({ url: `${url.pathname}${url.search}`, headers: req.headers });
    const html = (body: string, status = 200, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', ...headers });
      res.end(body);
    };
    const p = url.pathname;

    if (streamed(p, res)) return;
    if (p === '/article') return html(ARTICLE_HTML);
    // Pages that never stop: one allocates memory without end, one spins the CPU (browser.runaway.test.ts).
    if (p === '/runaway/memory')
      return html(page('Memory', `<p>eating</p><script>const kept = []; for (;;) kept.push(new Array(1e6).fill(kept.length));</script>`));
    if (p === '/runaway/cpu') return html(page('CPU', `<p>spinning</p><script>for (;;) {}</script>`));
    if (p === '/controls/third-party') {
      // Sub-resources on the origins the test names (another host, another port): an image, a script and a frame.
      const at = (name: string) => encodeURI(url.searchParams.get(name) ?? '');
      return html(
        page(
          'Third party',
          `<img src="${at('a')}/controls/img.png?third-img"><script src="${at('b')}/controls/none.js?third-script"></script><iframe src="${at('a')}/controls/echo?third-frame"></iframe>`,
        ),
      );
    }
    const control = CONTROL_PAGES[p];
    if (control) return html(control);
    if (p === '/controls/img.png') {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      return res.end(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64'));
    }
    if (p === '/controls/style.css') {
      res.writeHead(200, { 'Content-Type': 'text/css' });
      return res.end('body { color: #333; }');
    }
    if (p === '/listing') return html(LISTING_HTML);
    const navigating = NAVIGATING_PAGES[p];
    if (navigating) return html(navigating);
    const markdownPage = MARKDOWN_PAGES[p];
    if (markdownPage) return html(markdownPage);
    if (p === '/links') return html(LINKS_HTML);
    if (p === '/scrape') return html(SCRAPE_HTML);
    if (p === '/js-rendered') {
      return html(
        page(
          'Before script',
          `<div id="app">static placeholder</div>
<script>
  document.title = 'Rendered by script';
  document.getElementById('app').innerHTML = '<h1>Hello from JavaScript</h1><p id="sync">Rendered synchronously.</p>';
  fetch('/api/data.json').then(r => r.json()).then(d => {
    const p = document.createElement('p'); p.id = 'async'; p.textContent = 'Fetched: ' + d.message; document.body.appendChild(p);
  });
</script>`,
        ),
      );
    }
    if (p === '/api/data.json') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return res.end(JSON.stringify({ message: 'from the API' }));
    }
    if (p === '/slow') {
      const id = url.searchParams.get('id') ?? 'x';
      return html(
        page(
          'Slow page',
          `<p id="state">waiting</p><img src="/hold/${id}" alt="">
<script>window.addEventListener('load', () => { document.getElementById('state').textContent = 'loaded'; });</script>`,
        ),
      );
    }
    if (p === '/never-idle') {
      return html(page('Never idle', `<p>polling</p><script>setInterval(() => fetch('/api/data.json?' + Math.random()), 200);</script>`));
    }
    if (p.startsWith('/hold/')) {
      const id = p.slice('/hold/'.length);
      arrival(id).resolve();
      void releaseFor(id).then(() => {
        res.writeHead(200, { 'Content-Type': 'image/gif' });
        res.end(Buffer.from('R0lGODlhAQABAAAAACw=', 'base64'));
      });
      return;
    }
    const redirect = /^\/redirect\/(\d+)$/.exec(p);
    if (redirect) {
      const n = Number(redirect[1]);
      if (n === 0) return html(page('Redirect target', '<p id="final">End of the redirect chain</p>'));
      res.writeHead(302, { Location: `/redirect/${n - 1}` });
      return res.end();
    }
    if (p === '/redirect-to') {
      res.writeHead(302, { Location: url.searchParams.get('url') ?? '/' });
      return res.end();
    }
    if (p === '/huge') {
      const paragraphs = Number(url.searchParams.get('n') ?? 20_000);
      const chunk = Array.from({ length: paragraphs }, (_, i) => `<p>Paragraph ${i} of a very long page, with enough text to make it heavy.</p>`).join('');
      return html(page('Huge page', `<h1>Huge</h1>${chunk}`));
    }
    if (p === '/tall') {
      const h = Number(url.searchParams.get('h') ?? 3000);
      return html(page('Tall', `<div style="height:${h}px;background:linear-gradient(#f00,#00f)">tall</div>`, '<style>html,body{margin:0;padding:0}</style>'));
    }
    if (p === '/plain') {
      return html(page('Plain', '<h1>No background</h1><p>Text only; the page sets no background colour.</p>', '<style>body{margin:0}</style>'));
    }
    if (p === '/print') {
      const n = Number(url.searchParams.get('pages') ?? 3);
      const sections = Array.from(
        { length: n },
        (_, i) => `<section style="${i > 0 ? 'break-before:page;' : ''}"><h2>Section ${i + 1}</h2><p>Printed page ${i + 1}.</p></section>`,
      ).join('');
      return html(page('Printable', sections));
    }
    if (p === '/set-state') {
      return html(
        page(
          'Set state',
          `<p id="out"></p><script>
  document.cookie = 'js_cookie=secret-js; path=/';
  localStorage.setItem('ls_key', 'secret-ls');
  sessionStorage.setItem('ss_key', 'secret-ss');
  document.getElementById('out').textContent = 'cookies=' + document.cookie + ' ls=' + localStorage.getItem('ls_key');
</script>`,
        ),
        200,
        { 'Set-Cookie': 'header_cookie=secret-header; Path=/; Max-Age=3600' },
      );
    }
    if (p === '/show-state') {
      const cookieHeader = req.headers.cookie ?? '';
      return html(
        page(
          'Show state',
          `<p id="server">server-saw=[${cookieHeader.replace(/[<>&]/g, '')}]</p><p id="out"></p><script>
  document.getElementById('out').textContent = 'cookies=[' + document.cookie + '] ls=[' + localStorage.getItem('ls_key') + '] ss=[' + sessionStorage.getItem('ss_key') + ']';
</script>`,
        ),
      );
    }
    if (p === '/dialogs') {
      return html(
        page(
          'Dialogs',
          `<p id="out">before</p><script>alert('hi'); const ok = confirm('sure?'); document.getElementById('out').textContent = 'after confirm=' + ok;</script>`,
        ),
      );
    }
    if (p === '/popup') {
      return html(page('Popup', `<p id="out">opener</p><script>window.open('/article', '_blank');</script>`));
    }
    if (p === '/sw') {
      return html(
        page(
          'Service worker',
          `<p id="out">trying</p><script>
  const out = document.getElementById('out');
  if (!('serviceWorker' in navigator)) out.textContent = 'sw unavailable';
  else navigator.serviceWorker.register('/sw.js').then(() => { out.textContent = 'sw registered'; }, (e) => { out.textContent = 'sw refused'; });
</script>`,
        ),
      );
    }
    if (p === '/cacheable.js') {
      // An HTTP cache may keep this for an hour: a second request shows the cache was emptied.
      res.writeHead(200, { 'Content-Type': 'text/javascript', 'Cache-Control': 'public, max-age=3600' });
      return res.end('window.cacheableLoaded = true;');
    }
    if (p === '/sw.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript' });
      return res.end("self.addEventListener('fetch', () => {});");
    }
    if (p === '/download') {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Disposition': 'attachment; filename="x.bin"' });
      return res.end(Buffer.alloc(1024));
    }
    if (p === '/probe') {
      // Everything a page can do to reach another host: each must go through the guarded proxy.
      const target = url.searchParams.get('target') ?? '';
      const wsTarget = target.replace(/^http/, 'ws');
      return html(
        page(
          'Probe',
          `<p id="out">probing</p>
<img src="${target}/img.png" alt="">
<iframe src="${target}/frame"></iframe>
<link rel="stylesheet" href="${target}/style.css">
<script src="${target}/script.js"></script>
<script>
  // The outcomes are written once the fetch and the WebSocket have both settled (and the page has loaded),
  // and the paragraph marked done: a test waits for the mark, not for a delay.
  const results = [];
  const fetched = fetch('${target}/fetch').then(() => results.push('fetch ok'), () => results.push('fetch failed'));
  const socket = new Promise((settle) => {
    try { const ws = new WebSocket('${wsTarget}/ws'); ws.onopen = () => { results.push('ws open'); settle(); }; ws.onerror = () => { results.push('ws failed'); settle(); }; } catch (e) { results.push('ws threw'); settle(); }
  });
  try { navigator.sendBeacon('${target}/beacon', 'x'); } catch (e) {}
  try { const w = new Worker(URL.createObjectURL(new Blob(["fetch('${target}/worker').catch(() => {})"], { type: 'text/javascript' }))); } catch (e) {}
  const loaded = new Promise((done) => (document.readyState === 'complete' ? done() : window.addEventListener('load', () => done())));
  Promise.all([fetched, socket, loaded]).then(() => { const out = document.getElementById('out'); out.textContent = results.join(','); out.dataset.done = 'yes'; });
</script>`,
        ),
      );
    }
    if (p === '/file-tricks') {
      // ?file= names a local file whose content the test knows (and the page must never show).
      const file = encodeURI(`file://${url.searchParams.get('file') ?? '/etc/hostname'}`);
      return html(
        page(
          'File tricks',
          `<p id="out">page</p><iframe src="${file}"></iframe><img src="${file}"><script>try { location.href = '${file}'; } catch (e) {}</script>`,
        ),
      );
    }
    return html(page('Not found', '<p>not found</p>'), 404);
  });
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    paths,
    requests,
    held: (id) => arrival(id).promise,
    release: (id) => {
      void releaseFor(id);
      releases.get(id)?.();
    },
    close: async () => {
      for (const id of releases.keys()) releases.get(id)?.();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
