// The extractors the markdown bench compares, each a function of one rendered page ({ html, title, url }):
// ours = htmlToMarkdown (what browser.markdown's render() calls); baselines = plain @mozilla/readability in
// jsdom + turndown, the whole body through turndown, and defuddle (markdown mode) when it installs.
import { JSDOM, VirtualConsole } from 'jsdom';
import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';
import { htmlToMarkdown } from '../../dist/src/extract/markdown.js';

export const OURS = 'browser.markdown (ours, content: main)';

function turndown() {
  const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  td.use(gfm);
  td.remove(['script', 'style', 'noscript', 'template']);
  return td;
}

/** defuddle's constructor, or undefined (with the reason) when the package is missing or fails to load. */
export async function loadDefuddle() {
  try {
    return { Defuddle: (await import('defuddle/node')).Defuddle };
  } catch (err) {
    return { reason: err.message };
  }
}

/** @returns {Promise<{ name: string, run: (doc: { html: string, title: string, url: string }) => string | Promise<string> }[]>} */
export async function extractors({ withBaselines = true } = {}) {
  const td = turndown();
  const quiet = new VirtualConsole();
  // BENCH_MARKDOWN_OFF=rule,rule switches pruning rules off (names: PRUNE_RULES), to measure what each is worth.
  const off = (process.env.BENCH_MARKDOWN_OFF ?? '').split(',').filter(Boolean);
  const list = [{ name: OURS, run: (doc) => htmlToMarkdown(doc.html, doc.title, 'main', { off }).markdown }];
  if (!withBaselines) return list;
  list.push(
    {
      name: '@mozilla/readability + turndown (jsdom)',
      run: (doc) => {
        const dom = new JSDOM(doc.html, { url: doc.url, virtualConsole: quiet });
        const article = new Readability(dom.window.document).parse();
        dom.window.close();
        return article?.content ? td.turndown(article.content) : '';
      },
    },
    {
      name: 'whole body + turndown',
      run: (doc) => {
        const dom = new JSDOM(doc.html, { url: doc.url, virtualConsole: quiet });
        const out = td.turndown(dom.window.document.body?.innerHTML ?? '');
        dom.window.close();
        return out;
      },
    },
  );
  const { Defuddle } = await loadDefuddle();
  if (Defuddle) {
    list.push({
      name: 'defuddle (markdown)',
      run: async (doc) => {
        const dom = new JSDOM(doc.html, { url: doc.url, virtualConsole: quiet });
        try {
          return (await Defuddle(dom, doc.url, { markdown: true })).content ?? '';
        } finally {
          dom.window.close();
        }
      },
    });
  }
  return list;
}
