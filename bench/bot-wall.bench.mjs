// Bot-wall detection (issue 30): false walls on the markdown benches' corpora and detection on the wall
// fixture set. Every page of trafilatura's evaluation corpus (adbar/trafilatura, Apache-2.0) and of Mozilla
// Readability's test pages (mozilla/readability test/test-pages, Apache-2.0) is a real page someone wanted to
// read (both located or downloaded at bench time by bench/lib, never committed): each is classified from its
// archived HTML exactly as site.crawl's plain fetch classifies a body (the same pure classifier the browser
// tools run on the rendered DOM), served as 200, and again as if answered with 403 and 503 (the statuses that
// make the classifier readier to call a wall). Goal: 0 flagged. The wall fixtures of
// test/support/bot-wall-pages.ts give the other side: walls detected, look-alikes not flagged.
// Needs `npm run build` (reads dist/).
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { detectBotWall, pageFacts, WALL_MAX_TEXT_CHARS } from '../dist/src/extract/bot-wall/index.js';
import { PAGE_FIXTURES, WALL_FIXTURES } from '../dist/test/support/bot-wall-pages.js';
import { loadReadabilityCases, locateReadabilityCorpus } from './lib/readability-corpus.mjs';
import { loadCases, locateCorpus } from './lib/trafilatura-corpus.mjs';

const STATUSES = [200, 403, 503];

function classifyCorpus(cases) {
  const flagged = new Map(STATUSES.map((s) => [s, []]));
  let ms = 0;
  let bytes = 0;
  let short = 0;
  for (const c of cases) {
    const html = fs.readFileSync(c.file, 'utf8');
    bytes += html.length;
    // Pages as short as a wall: the ones the classifier really has to judge.
    if (pageFacts(html, { stopAfterChars: WALL_MAX_TEXT_CHARS }).textLength <= WALL_MAX_TEXT_CHARS) short++;
    for (const status of STATUSES) {
      const t0 = performance.now();
      const verdict = detectBotWall(html, { status, headers: {} });
      if (status === 200) ms += performance.now() - t0;
      if (verdict.wall) flagged.get(status).push({ url: c.url, signals: verdict.signals });
    }
  }
  return { flagged, ms, bytes, short };
}

export default {
  name: 'bot-wall',
  title: 'Bot-wall detection: false walls on the markdown benches’ corpora, walls found in the fixture set',
  async run() {
    const walls = WALL_FIXTURES.filter((f) => detectBotWall(f.html, { status: f.status, headers: f.headers ?? {} }).wall).length;
    const falsePages = PAGE_FIXTURES.filter((f) => detectBotWall(f.html, { status: f.status, headers: f.headers ?? {} }).wall).map((f) => f.name);
    const fixtureRow = `| wall fixture set (test/support/bot-wall-pages.ts) | ${WALL_FIXTURES.length} walls, ${PAGE_FIXTURES.length} look-alikes | ${walls} of ${WALL_FIXTURES.length} walls detected | ${falsePages.length} look-alikes flagged${falsePages.length ? ` (${falsePages.join(', ')})` : ''} |`;
    const corpora = [
      { name: 'trafilatura evaluation corpus', source: 'github.com/adbar/trafilatura, Apache-2.0', locate: locateCorpus, load: (c) => loadCases(c.testsDir) },
      {
        name: 'Mozilla Readability test pages',
        source: 'github.com/mozilla/readability test/test-pages, Apache-2.0',
        locate: locateReadabilityCorpus,
        load: (c) => loadReadabilityCases(c.pagesDir),
      },
    ];
    const rows = [];
    const notes = [];
    for (const spec of corpora) {
      const corpus = await spec.locate();
      if ('skip' in corpus) {
        process.stderr.write(`  skipped ${spec.name}: ${corpus.skip}\n`);
        notes.push(`${spec.name} skipped: ${corpus.skip}.`);
        continue;
      }
      try {
        const cases = spec.load(corpus);
        process.stderr.write(`  ${cases.length} pages of the ${spec.name} from ${corpus.origin}\n`);
        const { flagged, ms, bytes, short } = classifyCorpus(cases);
        for (const s of STATUSES) {
          const f = flagged.get(s);
          const shown = f.length
            ? `: ${f
                .slice(0, 5)
                .map((x) => `${x.url} (${x.signals.join('; ')})`)
                .join(', ')}`
            : '';
          rows.push(`| ${spec.name} served as ${s} | ${cases.length} | — | **${f.length}** flagged${shown} |`);
          for (const x of f) process.stderr.write(`  flagged as ${s}: ${x.url} — ${x.signals.join('; ')}\n`);
        }
        notes.push(
          `${spec.name}: ${corpus.origin} (${spec.source}), every page, classified from its archived HTML (${(bytes / 2 ** 20).toFixed(1)} MiB); ` +
            `${short} of the ${cases.length} pages are as short as a wall (at most ${WALL_MAX_TEXT_CHARS} characters of visible text in the raw HTML); ` +
            `classifier time at 200: ${(ms / cases.length).toFixed(2)} ms a page.`,
        );
      } finally {
        corpus.cleanup();
      }
    }
    return [
      '| set | pages | result | false walls |',
      '|---|---|---|---|',
      fixtureRow,
      ...rows,
      '',
      "Each page is classified as site.crawl's plain fetch does; the browser tools run the same classifier on the rendered DOM. " +
        "Served as 403 or 503 is the stricter check (a refusal status lowers what else a wall needs). One streaming parse a page, stopped once the text is longer than a wall's.",
      '',
      ...notes.map((n) => `- ${n}`),
    ].join('\n');
  },
};
