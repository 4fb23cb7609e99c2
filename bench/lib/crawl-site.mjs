// A generated multi-host site for the crawl tests and bench: pages linking each other across hosts, a
// sitemap index (one child gzip), robots.txt rules with a Crawl-delay, duplicate URLs (tracking
// parameters, host case, trailing slashes, fragments), a calendar trap, a session-id trap, repeating path
// segments, a query explosion, redirects and a redirect loop, 404s and slow pages. It counts what a
// crawler asked for, so a test can check politeness from the server's side.
import { gzipSync } from 'node:zlib';

/**
 * @param {{ hosts: string[], pages: number, crawlDelay?: number, slowMs?: number, port?: () => number, delayHost?: string }} o
 * hosts: host names (first is the start host); pages: pages in all; each page i lives on hosts[i % hosts.length].
 * delayHost: one more host, linked from the start page only, whose robots.txt sets Crawl-delay (crawlDelay, else 0.2 s).
 */
export function createCrawlSite(o) {
  const slowMs = o.slowMs ?? 50;
  const stats = {
    requests: 0,
    /** Requests to a path robots.txt disallows. */
    disallowed: 0,
    /** Requests per host+path+query (the crawler should ask for each page once). */
    byUrl: new Map(),
    /** Requests into the traps (calendar, session, repeating segments, query explosion). */
    trap: 0,
    times: [],
  };
  const port = () => (o.port ? o.port() : 0);
  const hostOf = (i) => o.hosts[i % o.hosts.length];
  const pageUrl = (i, suffix = '') => `http://${hostOf(i)}:${port()}/p/${i}${suffix}`;

  function page(i) {
    const links = [];
    for (const k of [1, 2, 3]) {
      const j = (i * 3 + k) % o.pages;
      links.push(pageUrl(j));
    }
    // Duplicates of the same pages, spelled differently.
    links.push(`${pageUrl((i * 3 + 1) % o.pages)}?utm_source=newsletter&utm_medium=email`);
    links.push(`${pageUrl((i * 3 + 2) % o.pages)}/`);
    links.push(`${pageUrl((i * 3 + 3) % o.pages)}#section-2`);
    links.push(pageUrl((i * 3 + 1) % o.pages).replace(hostOf((i * 3 + 1) % o.pages), hostOf((i * 3 + 1) % o.pages).toUpperCase()));
    links.push(`http://${hostOf(i)}:${port()}/private/${i}`);
    if (i === 0 && o.delayHost) for (let k = 1; k <= 5; k++) links.push(`http://${o.delayHost}:${port()}/p/${k}`);
    if (i % 10 === 0) {
      links.push(`http://${hostOf(i)}:${port()}/calendar/2026/1`);
      links.push(`http://${hostOf(i)}:${port()}/shop?sid=${Math.random().toString(36).slice(2)}`);
      links.push(`http://${hostOf(i)}:${port()}/a/a/a/`);
      links.push(`http://${hostOf(i)}:${port()}/search?q=x&page=1`);
      links.push(`http://${hostOf(i)}:${port()}/r/${(i + 5) % o.pages}`);
      links.push(`http://${hostOf(i)}:${port()}/loop-a`);
      links.push(`http://${hostOf(i)}:${port()}/missing/${i}`);
    }
    const body = links.map((l, n) => `<li><a href="${l}">Link ${n} of page ${i}</a></li>`).join('\n');
    return (
      `<!doctype html><html lang="en"><head><title>Page ${i}</title><meta name="description" content="Generated page ${i}">` +
      `<link rel="canonical" href="${pageUrl(i)}"></head><body><main><h1>Page ${i}</h1><p>This is page number ${i} of the generated site. ` +
      `It has a paragraph of text so the Markdown is not empty, and a list of links.</p><ul>${body}</ul></main></body></html>`
    );
  }

  function html(res, status, text) {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(text);
  }

  function handler(req, res) {
    stats.requests++;
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const url = new URL(req.url ?? '/', `http://${host}`);
    // One page however it is spelled: trailing slash and tracking parameters do not make another page.
    const query = [...url.searchParams].filter(([k]) => !k.startsWith('utm_'));
    const key = `${host}${url.pathname.replace(/(.)\/+$/, '$1')}${query.length ? `?${new URLSearchParams(query)}` : ''}`;
    stats.byUrl.set(key, (stats.byUrl.get(key) ?? 0) + 1);
    stats.times.push({ host, at: Date.now() });
    const p = url.pathname;
    if (p === '/robots.txt') {
      const lines = ['User-agent: *', 'Disallow: /private/', 'Allow: /about'];
      if (host === o.delayHost) lines.push(`Crawl-delay: ${o.crawlDelay ?? 0.2}`);
      else if (o.crawlDelay) lines.push(`Crawl-delay: ${o.crawlDelay}`);
      if (host === o.hosts[0]) lines.push(`Sitemap: http://${host}:${port()}/sitemap_index.xml`);
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`${lines.join('\n')}\n`);
      return;
    }
    if (p.startsWith('/private/')) {
      stats.disallowed++;
      return html(res, 200, '<p>secret</p>');
    }
    if (p === '/sitemap_index.xml') {
      const xml =
        `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
        `<sitemap><loc>http://${host}:${port()}/sitemap-1.xml</loc></sitemap><sitemap><loc>http://${host}:${port()}/sitemap-2.xml.gz</loc></sitemap></sitemapindex>`;
      res.writeHead(200, { 'content-type': 'application/xml' }).end(xml);
      return;
    }
    const sm = /^\/sitemap-(\d)\.xml(\.gz)?$/.exec(p);
    if (sm) {
      const half = Math.ceil(o.pages / 2);
      const from = sm[1] === '1' ? 0 : half;
      const to = sm[1] === '1' ? half : o.pages;
      const entries = [];
      for (let i = from; i < to; i++) entries.push(`<url><loc>${pageUrl(i)}</loc><lastmod>2026-01-${String((i % 28) + 1).padStart(2, '0')}</lastmod></url>`);
      const xml = `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join('')}</urlset>`;
      if (sm[2]) res.writeHead(200, { 'content-type': 'application/gzip' }).end(gzipSync(xml));
      else res.writeHead(200, { 'content-type': 'application/xml' }).end(xml);
      return;
    }
    if (p === '/' || p === '/about') return html(res, 200, page(0));
    const m = /^\/p\/(\d+)\/?$/.exec(p);
    if (m) {
      const i = Number(m[1]);
      if (i >= o.pages) return html(res, 404, '<p>no such page</p>');
      if (i % 97 === 13) {
        setTimeout(() => html(res, 200, page(i)), slowMs);
        return;
      }
      return html(res, 200, page(i));
    }
    const cal = /^\/calendar\/(\d+)\/(\d+)$/.exec(p);
    if (cal) {
      stats.trap++;
      const y = Number(cal[1]);
      const mo = Number(cal[2]);
      const next = mo === 12 ? `${y + 1}/1` : `${y}/${mo + 1}`;
      const prev = mo === 1 ? `${y - 1}/12` : `${y}/${mo - 1}`;
      return html(res, 200, `<title>Calendar ${y}-${mo}</title><a href="/calendar/${next}">next</a> <a href="/calendar/${prev}">prev</a>`);
    }
    if (p === '/shop') {
      stats.trap++;
      const sid = () => Math.random().toString(36).slice(2);
      return html(res, 200, `<title>Shop</title><a href="/shop?sid=${sid()}">home</a> <a href="/shop?sid=${sid()}&item=1">item</a>`);
    }
    if (/^\/(a\/)+$/.test(p)) {
      stats.trap++;
      return html(res, 200, `<title>Deep</title><a href="a/">deeper</a>`);
    }
    if (p === '/search') {
      stats.trap++;
      const n = Number(url.searchParams.get('page') ?? '1');
      const q = url.searchParams.get('q') ?? '';
      return html(
        res,
        200,
        `<title>Search</title><a href="/search?q=${q}&page=${n + 1}">next</a> <a href="/search?q=${q}x&page=1">refine</a> <a href="/search?q=${q}&page=${n}&sort=${n}">sort</a>`,
      );
    }
    const r = /^\/r\/(\d+)$/.exec(p);
    if (r) {
      res.writeHead(301, { location: `/p/${r[1]}` }).end();
      return;
    }
    if (p === '/loop-a') return void res.writeHead(302, { location: '/loop-b' }).end();
    if (p === '/loop-b') return void res.writeHead(302, { location: '/loop-a' }).end();
    return html(res, 404, '<title>Not found</title><p>missing</p>');
  }

  /** URLs asked for more than once (after the crawler's own normalisation they are one page). */
  function duplicateFetches() {
    let n = 0;
    for (const [key, count] of stats.byUrl) if (!key.endsWith('/robots.txt') && count > 1) n += count - 1;
    return n;
  }

  return { handler, stats, duplicateFetches, pageUrl };
}
