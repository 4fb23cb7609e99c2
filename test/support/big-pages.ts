// A loopback server of generated article pages of a chosen size (GET /article?bytes=N): headed sections of
// prose with links, so every text tool (content, markdown, links, scrape) has megabytes to return. Counts
// the requests per path, so a test can show a continuation rendered nothing again.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BigPageServer {
  port: number;
  /** Requests seen per path with query. */
  readonly hits: Map<string, number>;
  close(): Promise<void>;
}

/** An HTML article of about `bytes` bytes: h2 sections, paragraphs, one link per section. */
export function bigArticleHtml(bytes: number): string {
  const sections: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const words = Array.from({ length: 120 }, (_, w) => `word${(i * 7 + w) % 997}`).join(' ');
    const section = `<section><h2>Section ${i}</h2><p>${words}.</p><p>Second paragraph of section ${i}, with <a href="/s/${i}">a link to part ${i}</a> and café ✓ text.</p></section>\n`;
    sections.push(section);
    size += Buffer.byteLength(section);
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Big article</title></head><body><main><article><h1>Big article</h1>${sections.join('')}</article></main></body></html>`;
}

export async function startBigPageServer(): Promise<BigPageServer> {
  const hits = new Map<string, number>();
  const cache = new Map<number, string>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    hits.set(req.url ?? '/', (hits.get(req.url ?? '/') ?? 0) + 1);
    if (url.pathname !== '/article') {
      res.writeHead(404).end();
      return;
    }
    const bytes = Math.min(Number(url.searchParams.get('bytes') ?? 1000) || 1000, 20_000_000);
    let html = cache.get(bytes);
    if (html === undefined) cache.set(bytes, (html = bigArticleHtml(bytes)));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
