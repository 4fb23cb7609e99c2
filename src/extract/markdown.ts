// Rendered HTML → Markdown an LLM can read without the site's chrome. The page is parsed here and handed to
// the steps (steps.ts), the one place that orders every pass: noise removal, Readability's pick, pruning of
// the pick and the page, the choice between them and the overrides, credits. `full` converts the whole body,
// only the noise removed. Turndown converts with GFM tables, fenced code blocks that keep their language, and
// the absolute links the page script produced.
import { parseHTML } from 'linkedom';
import { makeLinksAbsolute } from './absolute-links.js';
import type { El } from './dom.js';
import { readMetadata, withReadabilityGuess, wordCount, type PageMetadata } from './metadata.js';
import { startReadabilityPick } from './readability-thread.js';
import { checkRuleNames, runSteps, type Article, type ExtractContent, type ExtractState } from './steps.js';
import { elementToMarkdown } from './to-markdown.js';
import type { RuleTrace } from './trace.js';

export { proseCoverage, READABILITY_MIN_CHARS, READABILITY_MIN_SHARE, READABILITY_SURE_CHARS } from './pick-measures.js';
export { RULE_NAMES } from './steps.js';
export type { RuleTrace } from './trace.js';

export type MarkdownContent = ExtractContent;

export interface MarkdownResult extends Omit<PageMetadata, 'title'> {
  /** The body only: no title, byline, date or standfirst put in front (those are the fields). */
  markdown: string;
  title: string;
  /**
   * Which path won: the article we found ('article'), Readability's own pick kept because ours held much
   * less of it or because its teaser cards were the content ('readability'), or the (cleaned) page body ('page').
   */
  source: 'article' | 'readability' | 'page';
  word_count: number;
  /** With `debug`: what each step and rule removed or chose, in the order they ran (the kept block is `source`). */
  trace?: RuleTrace[];
}

export interface ExtractOptions {
  /** Steps and rules switched off by name (RULE_NAMES), for measuring what each is worth; an unknown name is an error. */
  off?: readonly string[];
  /** Adds `trace`: every block a step or rule removed, and what each decision chose. */
  debug?: boolean;
  /** The page's URL, for HTML whose links are still relative (not serialised by the page script). */
  baseUrl?: string;
}

export function htmlToMarkdown(input: string, pageTitle: string, content: MarkdownContent = 'main', options: ExtractOptions = {}): MarkdownResult {
  if (options.off?.length) checkRuleNames(options.off);
  // linkedom needs a whole document; a serialised page always is one, a fragment gets wrapped.
  const html = /<html[\s>]/i.test(input) ? input : /<body[\s>]/i.test(input) ? `<html>${input}</html>` : `<html><body>${input}</body></html>`;
  const page = parseHTML(html).document;
  if (options.baseUrl) makeLinksAbsolute(page, options.baseUrl);
  const declared = readMetadata(page);
  // Not `page.body` yet: linkedom's getter inserts a <head> and <body> when the page's first elements are
  // not those, which changes the page; runSteps reads it once the noise rules ran.
  const root = page.documentElement as unknown as El;
  const state: ExtractState = {
    page,
    content,
    pageTitle,
    off: new Set(options.off ?? []),
    ...(options.debug ? { trace: [] } : {}),
    parseBody: (snapshot) => parseHTML(snapshot).document.body as unknown as El | null,
    readArticle,
    body: root,
    container: root,
    source: 'page',
    h1: '',
    snapshot: '',
    article: null,
    overridden: false,
    standfirst: '',
  };
  runSteps(state);
  const title = (pageTitle.trim() || (state.article?.title ?? '').trim() || state.h1).slice(0, 500);
  const markdown = elementToMarkdown(state.container);
  // A standfirst found in the page ranks after a declared description, before Readability's guess (which is
  // the body's first paragraph).
  const meta = withReadabilityGuess({ ...declared, excerpt: declared.excerpt || state.standfirst.slice(0, 1_000) }, state.article?.guess);
  return {
    markdown,
    title,
    source: state.source,
    byline: meta.byline,
    published_at: meta.published_at,
    lang: meta.lang,
    site_name: meta.site_name,
    excerpt: meta.excerpt,
    word_count: wordCount(markdown),
    ...(state.trace ? { trace: state.trace } : {}),
  };
}

/** Starts Readability's pass on the cleaned page's HTML (in its own thread); the pick is parsed here when collected. */
function readArticle(html: string): () => Article | null {
  const pending = startReadabilityPick(html);
  return () => {
    const pick = pending();
    if (!pick) return null;
    const { content, guess } = pick;
    const parsePick = () =>
      parseHTML(`<!doctype html><html><body><div id="md-root">${content}</div></body></html>`).document.getElementById('md-root') as unknown as El;
    return { root: parsePick(), title: guess.title ?? '', guess, unpruned: parsePick };
  };
}
