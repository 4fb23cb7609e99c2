// Main-content extraction quality of browser.markdown on a second public corpus with full article bodies:
// Mozilla Readability's test pages (github.com/mozilla/readability, test/test-pages, Apache-2.0; located or
// downloaded at bench time, never committed: lib/readability-corpus). Each page's expected.html is the
// article body (Readability's reviewed output, so plain Readability is at home here: the corpus checks that
// ours does not fall below it, more than that it can rise above it) and expected-metadata.json its fields.
//
// Pages are served from loopback to Chromium (scripts off, other traffic refused) and serialised by the tool's
// own page script, as in markdown.bench; every extractor converts that same HTML. Token F1 per page: the
// words (letters and digits, lower-cased, Markdown syntax and link targets dropped) of the output against
// those of expected.html, as multisets; precision, recall and F1 are page means, and the share of pages
// under F1 0.5 is given. The pages alternate, in name order, between a tuning half and a held-out half that
// is only reported. BENCH_READABILITY_CACHE=file keeps the rendered HTML between runs; BENCH_MARKDOWN_ONLY=ours
// skips the baselines.
import { performance } from 'node:perf_hooks';
import { parseHTML } from 'linkedom';
import { htmlToMarkdown } from '../dist/src/extract/markdown.js';
import { extractors, loadDefuddle, OURS } from './lib/markdown-extractors.mjs';
import { loadReadabilityCases, locateReadabilityCorpus } from './lib/readability-corpus.mjs';
import { renderCached, runExtractor } from './lib/render-pages.mjs';
import { normaliseForMatch } from './lib/trafilatura-corpus.mjs';
import { pageScore, summary, truthTokens } from './lib/token-scores.mjs';

function truthOfHtml(html) {
  const doc = parseHTML(`<!doctype html><html><body>${html}</body></html>`).document;
  return truthTokens(doc.body.textContent ?? '');
}

const same = (a, b) => {
  const x = normaliseForMatch(String(a ?? '')),
    y = normaliseForMatch(String(b ?? ''));
  return x.length > 0 && y.length > 0 && (x === y || x.includes(y) || y.includes(x));
};

/** Share of pages whose expected field is given where ours matches it (equal, or one holds the other). */
function metadataRows(cases, rendered) {
  const fields = [
    ['title', 'title'],
    ['byline', 'byline'],
    ['published_at', 'publishedTime', (a, b) => String(a).slice(0, 10) === String(b).slice(0, 10) && !!a],
    ['lang', 'lang', (a, b) => !!a && String(a).toLowerCase().split('-')[0] === String(b).toLowerCase().split('-')[0]],
    ['site_name', 'siteName'],
    ['excerpt', 'excerpt'],
  ];
  const results = cases.map((c, i) => (rendered[i] ? htmlToMarkdown(rendered[i].html, rendered[i].title) : undefined));
  return fields.map(([ours, theirs, eq = same]) => {
    let given = 0,
      matched = 0;
    cases.forEach((c, i) => {
      const expected = c.metadata[theirs];
      if (!results[i] || expected === null || expected === undefined || expected === '') return;
      given++;
      if (eq(results[i][ours], expected)) matched++;
    });
    return `| ${ours} | ${given} | ${given ? ((100 * matched) / given).toFixed(0) : '–'}% |`;
  });
}

export default {
  name: 'markdown-readability',
  title: 'browser.markdown: main-content extraction on Mozilla Readability’s test pages (full bodies)',
  async run() {
    const corpus = await locateReadabilityCorpus();
    if ('skip' in corpus) {
      process.stderr.write(`  skipped: ${corpus.skip}\n`);
      return `Skipped: ${corpus.skip}.`;
    }
    try {
      const cases = loadReadabilityCases(corpus.pagesDir);
      process.stderr.write(`  ${cases.length} pages from ${corpus.origin}; rendering in Chromium…\n`);
      const rendered = await renderCached(cases, process.env.BENCH_READABILITY_CACHE);
      const ok = cases.map((_, i) => i).filter((i) => rendered[i]);
      const truths = cases.map((c) => truthOfHtml(c.expectedHtml));
      const only = process.env.BENCH_MARKDOWN_ONLY === 'ours';
      if (!only && process.env.BENCH_MARKDOWN_SKIP_DEFUDDLE !== '1') {
        const { reason } = await loadDefuddle();
        if (reason) process.stderr.write(`  defuddle not available (${reason}); baseline skipped\n`);
      }
      const rows = [];
      for (const ex of await extractors({ withBaselines: !only })) {
        const t0 = performance.now();
        const run = await runExtractor(
          ex.name,
          ok.map((i) => rendered[i]),
        );
        const scores = ok.map((i, k) => ({ half: cases[i].half, name: cases[i].name, ...pageScore(run.outputs[k], truths[i]) }));
        const row = {
          name: ex.name,
          all: summary(scores),
          tuning: summary(scores.filter((s) => s.half === 'tuning')),
          heldOut: summary(scores.filter((s) => s.half === 'held-out')),
          ms: run.ms / ok.length,
          failures: run.failures,
          worst: scores.filter((s) => s.f1 < 0.5 && s.half === 'tuning').map((s) => `${s.name} (${s.f1.toFixed(2)})`),
        };
        rows.push(row);
        process.stderr.write(
          `  ${ex.name}: F1 ${row.all.f1.toFixed(3)} (tuning ${row.tuning.f1.toFixed(3)}, held-out ${row.heldOut.f1.toFixed(3)}), under 0.5: ${(100 * row.all.under).toFixed(1)}%, ${row.ms.toFixed(1)} ms/page (${Math.round((performance.now() - t0) / 1000)} s)\n`,
        );
      }
      const fmt = (s) => `${s.f1.toFixed(3)} | ${s.precision.toFixed(3)} | ${s.recall.toFixed(3)} | ${(100 * s.under).toFixed(1)}%`;
      const ours = rows.find((r) => r.name === OURS);
      return [
        `Corpus: Mozilla Readability's test pages (github.com/mozilla/readability, Apache-2.0; ${corpus.origin}), ${ok.length} of ${cases.length} pages rendered. ` +
          "Truth: each page's expected.html (the full article body). The truth is Readability's own reviewed output, so plain Readability is favoured here. " +
          'Token F1 per page (words as multisets), page means; tuning half = even-indexed pages in name order, held-out half = odd-indexed (reported only).',
        '',
        '| extractor | half | F1 | precision | recall | pages under F1 0.5 | ms/page |',
        '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
        ...rows.flatMap((r) => [
          `| ${r.name}${r.failures ? ` (${r.failures} threw)` : ''} | tuning (${r.tuning.pages}) | ${fmt(r.tuning)} | ${r.ms.toFixed(0)} |`,
          `| | held-out (${r.heldOut.pages}) | ${fmt(r.heldOut)} | |`,
          `| | all | ${fmt(r.all)} | |`,
        ]),
        '',
        `Ours under F1 0.5 on the tuning half: ${ours?.worst.join(', ') || 'none'}.`,
        '',
        "Metadata (ours, all pages): share of pages whose expected-metadata.json gives the field where ours matches it (normalised text equal or one holding the other; dates by day; language by primary tag). Ours' title is the page's <title>, theirs is cut of the site name, so containment counts.",
        '',
        '| field | pages with it | matched |',
        '| --- | ---: | ---: |',
        ...metadataRows(cases, rendered),
      ].join('\n');
    } finally {
      corpus.cleanup();
    }
  },
};
