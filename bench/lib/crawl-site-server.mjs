// The generated crawl site (crawl-site.mjs) served from a child process on several loopback addresses, one
// port: the bench's CPU figures are then the crawler's alone. Asked over IPC for its counters, or to reset.
import http from 'node:http';
import { createCrawlSite } from './crawl-site.mjs';

const pages = Number(process.argv[2] ?? 2000);
const addresses = (process.argv[3] ?? '127.0.0.1,127.0.0.2,127.0.0.3,127.0.0.4').split(',');
const delayHost = process.argv[4] ?? '127.0.0.5';
let port = 0;
let site = createCrawlSite({ hosts: addresses, pages, port: () => port, delayHost, slowMs: 100 });
const servers = [];
for (const address of [...addresses, delayHost]) {
  const server = http.createServer((req, res) => site.handler(req, res));
  server.keepAliveTimeout = 5000;
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, resolve);
  });
  port = server.address().port;
  servers.push(server);
}
process.on('message', (m) => {
  if (m === 'reset') {
    site = createCrawlSite({ hosts: addresses, pages, port: () => port, delayHost, slowMs: 100 });
    process.send({ ok: true });
  } else if (m === 'stats') {
    process.send({ requests: site.stats.requests, disallowed: site.stats.disallowed, trap: site.stats.trap, duplicates: site.duplicateFetches() });
  } else if (m === 'stop') {
    for (const s of servers) s.close();
    process.exit(0);
  }
});
process.send({ port });
