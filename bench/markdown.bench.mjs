// Main-content extraction quality of browser.markdown on trafilatura's evaluation corpus (adbar/trafilatura,
// Apache-2.0: tests/cache + tests/eval HTML pages, tests/evaldata.json snippets that must / must not be in
// the main text). The corpus is located or downloaded at bench time and never committed (lib/trafilatura-corpus).
//
// Every page is served from loopback and loaded in Chromium with scripts off (archived pages' scripts would
// only fetch the dead web) and every non-loopback request aborted; the browser tool's own page script
// (serialiseVisibleDocument) produces the HTML, and each extractor converts that same HTML:
// ours = htmlToMarkdown, the function browser.markdown's render() calls; baselines = plain
// @mozilla/readability in jsdom + turndown, the whole body through turndown, and defuddle (markdown mode).
// Precision = share of must-not snippets absent, recall = share of must snippets present, F1 per extractor
// over all snippets, and per page (the share of pages under F1 0.5); each figure also for the tuning half and
// the held-out half of the pages (bench/lib/query-half.mjs of the page URL; the held-out half is only
// reported). Quicker runs: BENCH_MARKDOWN_STRIDE=k takes every k-th page, BENCH_MARKDOWN_ONLY=ours skips the baselines, BENCH_MARKDOWN_CACHE=file keeps the rendered HTML between runs (for iterating on the
// extractor: render once, then rerun only the conversion and scoring). Each extractor's pass runs in worker
// threads, a fresh one per chunk of pages: jsdom holds on to memory, and one heap would not last the corpus.
import { performance } from 'node:perf_hooks';
import { extractors, loadDefuddle } from './lib/markdown-extractors.mjs';
import { locateCorpus, loadCases, normaliseForMatch } from './lib/trafilatura-corpus.mjs';
import { renderCached, runExtractor } from './lib/render-pages.mjs';
import { queryHalf } from './lib/query-half.mjs';

/** F1, precision, recall and share of pages under F1 0.5 of one half ('tuning', 'held out') or of all pages. */
export function halfScore(cases, outputs, half) {
  return score(
    cases,
    outputs.map((o, i) => (half === 'all' || queryHalf(cases[i].url) === half ? o : undefined)),
  );
}

export function score(cases, outputs) {
  let withFound = 0,
    withTotal = 0,
    withoutAbsent = 0,
    withoutTotal = 0,
    outChars = 0,
    expectedChars = 0;
  const perPage = [];
  outputs.forEach((out, i) => {
    if (out === undefined) return;
    const text = normaliseForMatch(out);
    const missing = cases[i].with.filter((s) => !text.includes(normaliseForMatch(s)));
    const leaked = cases[i].without.filter((s) => text.includes(normaliseForMatch(s)));
    withTotal += cases[i].with.length;
    withFound += cases[i].with.length - missing.length;
    withoutTotal += cases[i].without.length;
    withoutAbsent += cases[i].without.length - leaked.length;
    outChars += text.length;
    expectedChars += cases[i].with.reduce((n, s) => n + normaliseForMatch(s).length, 0);
    // A page's own F1, from its snippets: a page with none of one kind counts as perfect on that side.
    const p = cases[i].without.length ? 1 - leaked.length / cases[i].without.length : 1;
    const r = cases[i].with.length ? 1 - missing.length / cases[i].with.length : 1;
    perPage.push({ i, errors: missing.length + leaked.length, missing, leaked, chars: text.length, f1: p + r ? (2 * p * r) / (p + r) : 0 });
  });
  const precision = withoutAbsent / withoutTotal;
  const recall = withFound / withTotal;
  const under = perPage.filter((p) => p.f1 < 0.5).length / Math.max(1, perPage.length);
  return { precision, recall, f1: (2 * precision * recall) / (precision + recall), outChars, expectedChars, perPage, under, pages: perPage.length };
}

export default {
  name: 'markdown',
  title: 'browser.markdown: main-content extraction on trafilatura’s evaluation corpus',
  async run() {
    const corpus = await locateCorpus();
    if ('skip' in corpus) {
      process.stderr.write(`  skipped: ${corpus.skip}\n`);
      return `Skipped: ${corpus.skip}.`;
    }
    try {
      let cases = loadCases(corpus.testsDir);
      const stride = Math.max(1, Number(process.env.BENCH_MARKDOWN_STRIDE ?? 1));
      cases = cases.filter((_, i) => i % stride === 0);
      process.stderr.write(`  ${cases.length} pages from ${corpus.origin}; rendering in Chromium…\n`);
      const t0 = performance.now();
      const rendered = await renderCached(cases, process.env.BENCH_MARKDOWN_CACHE);
      process.stderr.write(`  rendered in ${Math.round((performance.now() - t0) / 1000)} s\n`);
      const ok = cases.map((_, i) => i).filter((i) => rendered[i]);
      const rows = [];
      const only = process.env.BENCH_MARKDOWN_ONLY === 'ours';
      if (!only && process.env.BENCH_MARKDOWN_SKIP_DEFUDDLE !== '1') {
        const { reason } = await loadDefuddle();
        if (reason) process.stderr.write(`  defuddle not available (${reason}); baseline skipped\n`);
      }
      for (const ex of await extractors({ withBaselines: !only })) {
        const run = await runExtractor(
          ex.name,
          ok.map((i) => rendered[i]),
        );
        const outputs = new Array(cases.length);
        ok.forEach((i, k) => (outputs[i] = run.outputs[k]));
        const ms = run.ms / ok.length;
        const s = score(cases, outputs);
        rows.push({ ex, s, ms, failures: run.failures, tuning: halfScore(cases, outputs, 'tuning'), heldOut: halfScore(cases, outputs, 'held out') });
        process.stderr.write(
          `  ${ex.name}: F1 ${s.f1.toFixed(3)} (P ${s.precision.toFixed(3)}, R ${s.recall.toFixed(3)}), ${ms.toFixed(1)} ms/page, ${run.failures} threw\n`,
        );
      }
      return markdownReport(cases, rendered, ok.length, corpus.origin, rows, stride);
    } finally {
      corpus.cleanup();
    }
  },
};

/** The rendered page's text as the annotators could read it: markup, scripts and styles dropped. */
function pageText(html) {
  return normaliseForMatch(
    html
      .replace(/<(script|style|template)\b[\s\S]*?<\/\1>/gi, ' ')
      .replace(/<[^>]+>/g, ' ')
      .replace(/&nbsp;/g, ' ')
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>'),
  );
}

/**
 * The section: rows are [{ ex: { name }, s, tuning, heldOut, ms, failures }], each score from score() over
 * all pages and over each half (queryHalf of the page URL: rules are tuned on one half, the other is only
 * reported). Exported so that a run whose extractors ran apart on the same rendered pages can be reported alike.
 */
export function markdownReport(cases, docs, rendered, origin, rows, stride) {
  const ours = rows[0];
  const fmt = (s, bold = false) =>
    `${bold ? `**${s.f1.toFixed(3)}**` : s.f1.toFixed(3)} | ${s.precision.toFixed(3)} | ${s.recall.toFixed(3)} | ${(100 * s.under).toFixed(1)}%`;
  const lines = [
    (stride > 1 ? `Sample run: every ${stride}th page (\`BENCH_MARKDOWN_STRIDE=${stride}\`). ` : '') +
      "Corpus: trafilatura's evaluation set (github.com/adbar/trafilatura, Apache-2.0 — the licence of the repository, which holds the test pages and annotations; " +
      `the archived pages themselves remain their publishers' and are only read at bench time, never committed; ${origin}), ${rendered} of ${cases.length} pages rendered, ` +
      `${cases.reduce((n, c) => n + c.with.length, 0)} must-have and ${cases.reduce((n, c) => n + c.without.length, 0)} must-not snippets. ` +
      'Each page is served from loopback to Chromium (scripts off, all other traffic refused) and serialised by the tool’s own page script; every extractor converts that same HTML. ' +
      'Precision = share of must-not snippets absent, recall = share of must-have snippets present (after flattening Markdown syntax and whitespace; a link counts as its text, an image as none: its alt attribute is not text the page shows; an escaped character counts as itself). ' +
      'F1 over all snippets of the pages in a row; a page is under F1 0.5 when its own snippets give it less. Halves by bench/lib/query-half.mjs of the page URL: tuning (rules may be tuned on it) and held out (only reported).',
    '',
    '| extractor | pages | F1 | precision | recall | pages under F1 0.5 | output chars per expected char | ms/page |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.flatMap(({ ex, s, tuning, heldOut, ms, failures }) => [
      `| ${ex.name}${failures ? ` (${failures} threw)` : ''} | all (${s.pages}) | ${fmt(s, true)} | ${(s.outChars / s.expectedChars).toFixed(1)} | ${ms.toFixed(0)} |`,
      `| | tuning (${tuning.pages}) | ${fmt(tuning)} | | |`,
      `| | held out (${heldOut.pages}) | ${fmt(heldOut)} | | |`,
    ]),
    '',
    'Worst five pages for ours on the tuning half (most snippets wrong), with why: whether the missing text is in the rendered page at all, and how the other extractors did on the same page:',
    '',
    ...ours.tuning.perPage
      .sort((a, b) => b.errors - a.errors)
      .slice(0, 5)
      .map((p) => {
        const c = cases[p.i];
        const shown = pageText(docs[p.i].html);
        const absent = p.missing.filter((m) => !shown.includes(normaliseForMatch(m))).length;
        const why = [
          p.missing.length ? `missing ${p.missing.length}/${c.with.length} (e.g. “${p.missing[0].slice(0, 60)}”)` : '',
          absent ? `${absent} of them not in the rendered page (scripts off: the page fills or shows them with scripts)` : '',
          p.missing.length > absent ? `${p.missing.length - absent} in the page but outside the block we kept` : '',
          p.leaked.length ? `kept ${p.leaked.length}/${c.without.length} boilerplate (e.g. “${p.leaked[0].slice(0, 60)}”)` : '',
        ]
          .filter(Boolean)
          .join('; ');
        const others = rows
          .slice(1)
          .map(({ ex, s }) => `${ex.name.split(' ')[0]} ${s.perPage.find((q) => q.i === p.i)?.errors ?? '–'}`)
          .join(', ');
        return `- ${c.url} — ${why}; ${p.chars} chars out${others ? `. Snippets wrong on this page: ours ${p.errors}, ${others}` : ''}`;
      }),
  ];
  return lines.join('\n');
}
