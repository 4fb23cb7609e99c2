// The one place that orders the passes of an extraction. The page is first cleaned of noise (NOISE_RULES,
// for `main` and `full` alike); for `main`, Readability picks the article on a copy, the page's body and the
// pick are pruned (PRUNE_RULES, rule by rule, on each tree), and the steps below choose what is kept: the pick
// or the page, the densest prose when the pick missed it, the pick's lost headings and sibling boxes, and
// the floor that keeps Readability's pick when an override lost the article. Credits go last, from whatever
// was kept. Every step and rule has a name (switched off by `off`) and records what it removed or chose in
// the trace when `debug` is on.
import { PRUNE_RULE_NAMES, pruneBoilerplate, type PruneOptions } from './boilerplate.js';
import { stripCredits } from './credits.js';
import { collapseSpace as normalisedText, textLength, type Doc, type El } from './dom.js';
import { leadParagraphs } from './lead.js';
import type { ReadabilityGuess } from './metadata.js';
import { NOISE_RULES, removeNoise } from './noise.js';
import {
  DENSE_MIN_SHARE_OF_PICK,
  MIN_PROSE_COVERAGE,
  OWN_PROSE_MIN_CHARS,
  proseCoverage,
  proseShare,
  searchableText,
  READABILITY_MIN_CHARS,
  READABILITY_MIN_SHARE,
  READABILITY_SURE_CHARS,
} from './pick-measures.js';
import { paragraphs, proseContainer, type Paragraph } from './prose-container.js';
import { belowFloor, passagesBelowFloor, prosePassages, type ProsePassage } from './readability-floor.js';
import { restoreSectionHeadings } from './section-headings.js';
import { withSiblingBoxes } from './sibling-blocks.js';
import { TRACE_TEXT_CHARS, traceEntry, traceRemovals, type RuleTrace } from './trace.js';

export type ExtractContent = 'main' | 'full';

export interface Article {
  root: El;
  title: string;
  guess: ReadabilityGuess;
  /**
   * The pick as Readability gave it, again: a new copy in a document of its own, as `root` is. Connected, not
   * detached: the pruning rules skip blocks that an earlier removal took out of the page (`isConnected`), and
   * in a detached tree every block looks taken out. Parsed only when a step needs it (rarely).
   */
  unpruned: () => El;
}

/** What the steps read and decide; the caller gives the page and the parsers, and reads the result. */
export interface ExtractState {
  readonly page: Doc;
  readonly content: ExtractContent;
  readonly pageTitle: string;
  readonly off: ReadonlySet<string>;
  readonly trace?: RuleTrace[];
  /** The body of `html` parsed again (linkedom stays with the caller). */
  readonly parseBody: (html: string) => El | null;
  /** Readability's pick of `html`, or null when it finds none. */
  /** Starts Readability's pick of a copy of the page (its own parse of `html`); the function returned collects it. */
  readonly readArticle: (html: string) => () => Article | null;
  /** Readability's pick while it is being read (readability-pick started it), and where its trace entry goes. */
  pendingArticle?: { collect: () => Article | null; traceAt: number };
  /** The page's body once the noise rules ran (set by runSteps). */
  body: El;
  /** The block that becomes the Markdown. */
  container: El;
  source: 'article' | 'readability' | 'page';
  /** The cleaned page's H1: the title when neither the page nor Readability declares one. */
  h1: string;
  /** The cleaned page's HTML, read before pruning (Readability reads a copy; link-lists-page parses it again). */
  snapshot: string;
  article: Article | null;
  /** Whether prune-pick ran (the step that prunes the pick again without names follows only it). */
  pickPruned?: boolean;
  /** The prose of Readability's pick before pruning (read by prune-pick), for pick-by-links to weigh what pruning took. */
  pickProse?: ProsePassage[];
  /** Whether pick-by-links put back what the link rules took from the pick: the result is then Readability's pick. */
  widened?: boolean;
  /** The pruned body's text length, once measured. */
  pageChars?: number;
  /**
   * The pruned pick's text length and searchable text, once measured: the steps from pruning to the first
   * that changes the pick ask them in turn (on a long article each is a walk through all of it).
   */
  pickChars?: number;
  pickText?: string;
  /** The pruned body's paragraphs and densest block, measured once when a step first needs them. */
  measured?: { paras: Paragraph[]; dense: { el: El; score: number } | undefined };
  /** Whether densest-prose overruled the pick (then the pick's own additions do not apply). */
  overridden: boolean;
  standfirst: string;
}

interface ExtractStep {
  name: string;
  /** What it removes or chooses, and why. */
  why: string;
  /** Steps only `main` runs; the others run for `full` too. */
  mainOnly: boolean;
  /**
   * Reads nothing of Readability's pick: runs while the pick is still being read (in its own thread); the
   * first step without this flag waits for it.
   */
  beforePick?: true;
  run: (s: ExtractState) => void;
}

/** Pruning options for a tree: the switches and the trace of this extraction. */
function pruneOptions(s: ExtractState, extra: PruneOptions = {}): PruneOptions {
  return { ...(s.off.size ? { off: s.off } : {}), ...(s.trace ? { trace: s.trace } : {}), ...extra };
}

function measured(s: ExtractState): NonNullable<ExtractState['measured']> {
  if (!s.measured) {
    const paras = paragraphs(s.body);
    s.measured = { paras, dense: proseContainer(s.body, paras) };
  }
  return s.measured;
}

function pageChars(s: ExtractState): number {
  return (s.pageChars ??= textLength(s.body));
}

function pickChars(s: ExtractState, article: Article): number {
  return (s.pickChars ??= textLength(article.root));
}

function pickText(s: ExtractState, article: Article): string {
  return (s.pickText ??= searchableText(article.root));
}

/** The container's searchable text when it is the pick (measured once), else undefined (the measure reads it). */
function pickTextIfContainer(s: ExtractState): string | undefined {
  return s.article && s.container === s.article.root ? pickText(s, s.article) : undefined;
}

/** Forgets the pick's measures: a step replaced or changed it. */
function pickChanged(s: ExtractState): void {
  delete s.pickChars;
  delete s.pickText;
}

function chose(s: ExtractState, step: string, tree: RuleTrace['tree'], el: El, what: string): void {
  s.trace?.push(traceEntry(step, tree, el, what));
}

/** Whether the pick is kept and no override took its place: the steps that complete the pick apply. */
function pickKept(s: ExtractState): boolean {
  return s.source === 'article' && !s.overridden;
}

/** The steps in the order they run (after NOISE_RULES). */
export const EXTRACT_STEPS: readonly ExtractStep[] = [
  {
    name: 'readability-pick',
    why: "Readability's pick of the article, read on a copy of the cleaned page",
    mainOnly: true,
    beforePick: true,
    // Collected (and its trace entry put here, before the page's pruning) by the first step that reads it.
    run: (s) => {
      s.pendingArticle = { collect: s.readArticle(s.snapshot), traceAt: s.trace?.length ?? 0 };
    },
  },
  {
    name: 'prune-page',
    why: "the page's body pruned rule by rule (PRUNE_RULES): the fallback when the pick is not used",
    mainOnly: true,
    beforePick: true,
    run: (s) => {
      pruneBoilerplate(s.body, pruneOptions(s));
      s.pageChars = textLength(s.body);
    },
  },
  {
    name: 'link-lists-page',
    why: 'a page pruning left nearly empty is one whose content is links (a post of bookmarked links): it is pruned again, keeping its link lists',
    mainOnly: true,
    beforePick: true,
    run: (s) => {
      if (pageChars(s) >= READABILITY_MIN_CHARS) return;
      const again = s.parseBody(s.snapshot);
      if (!again) return;
      pruneBoilerplate(again, pruneOptions(s, { byLinks: false }));
      if (textLength(again) < READABILITY_MIN_CHARS) return;
      s.body = again;
      s.container = again;
      s.pageChars = textLength(again);
      chose(s, 'link-lists-page', 'page', again, 'page with its link lists');
    },
  },
  {
    name: 'prune-pick',
    why: "Readability's pick pruned rule by rule (PRUNE_RULES): it keeps comment threads, share bars and related links",
    mainOnly: true,
    run: (s) => {
      if (!s.article) return;
      s.pickPruned = true;
      // Its prose as Readability gave it, read before the rules change it, for pick-by-links to weigh what they
      // took. Not on a page that one H1 titles (pick-by-links leaves those alone): most articles skip the walk.
      if (!s.off.has('pick-by-links') && s.body.querySelectorAll('h1').length !== 1) s.pickProse = prosePassages(s.article.root);
      pruneBoilerplate(s.article.root, pruneOptions(s, { tree: 'article' }));
    },
  },
  {
    name: 'pick-without-names',
    why: 'a long pick that pruning emptied while the page has no prose of its own took the content by its names (a ticker\'s "comment" cards): it is pruned by links and text alone',
    mainOnly: true,
    run: (s) => {
      if (!s.article || !s.pickPruned) return;
      if (pickChars(s, s.article) >= READABILITY_MIN_CHARS || (measured(s).dense?.score ?? 0) >= OWN_PROSE_MIN_CHARS) return;
      const unpruned = s.article.unpruned();
      if (textLength(unpruned) < READABILITY_SURE_CHARS) return;
      pruneBoilerplate(unpruned, pruneOptions(s, { byName: false, tree: 'article' }));
      s.article.root = unpruned;
      pickChanged(s);
      chose(s, 'pick-without-names', 'article', unpruned, 'pick pruned without names');
    },
  },
  {
    name: 'pick-by-links',
    why: 'a pick whose pruning took more than half its prose, on a page not titled by one H1, is pruned again without the link rules (teaser cards, link-dense blocks) when that keeps its prose: the cards were the content (a section front)',
    mainOnly: true,
    run: (s) => {
      const article = s.article;
      // Read only on a page that no single H1 titles (prune-pick): a page with one title (its only H1, where
      // pruning left it) is one article, and the cards beside it are other stories, however much prose their
      // blurbs hold. A section front titles each card alike.
      if (!article || !s.pickProse || !passagesBelowFloor(s.pickProse, pickText(s, article))) return;
      // Rules that judge by name or wording state what they took (a comment thread, a notice); only when the
      // rules that judge by link shape alone took the prose is their verdict overruled.
      const widened = article.unpruned();
      pruneBoilerplate(widened, pruneOptions(s, { byLinks: false, tree: 'article' }));
      const text = searchableText(widened);
      if (passagesBelowFloor(s.pickProse, text)) return;
      article.root = widened;
      pickChanged(s);
      s.pickText = text;
      s.widened = true;
      chose(s, 'pick-by-links', 'article', widened, 'pick pruned without link rules');
    },
  },
  {
    name: 'pick-or-page',
    why: 'the pick is kept when long enough and holding enough of the pruned page (by length or prose); else the page is',
    mainOnly: true,
    run: (s) => {
      if (!s.article) return;
      const root = s.article.root;
      const chars = pickChars(s, s.article);
      // Against the page, the pick is measured by its prose as well as its length: what pruning leaves of a
      // page around a short article can be long lists and lines that hold no prose.
      const share = Math.max(chars / Math.max(1, pageChars(s)), proseShare(root, measured(s).paras, pickText(s, s.article)));
      if (chars >= READABILITY_MIN_CHARS && (chars >= READABILITY_SURE_CHARS || share >= READABILITY_MIN_SHARE)) {
        s.container = root;
        // Readability's own pick, less pruned than ours would have it: the steps that complete our pick do not apply.
        s.source = s.widened ? 'readability' : 'article';
        chose(s, 'pick-or-page', 'article', root, s.source);
      } else chose(s, 'pick-or-page', 'page', s.container, 'page');
    },
  },
  {
    name: 'densest-prose',
    // A densest block with less prose than half the pick is no second opinion: the page's own pruning took
    // the article's wrapper (a misleading class name) and left only scraps.
    why: 'the densest block of the pruned page replaces a pick that holds less than half its prose (a list of names, half of a split article)',
    mainOnly: true,
    run: (s) => {
      if (s.source !== 'article') return;
      const { paras, dense } = measured(s);
      // The container is still the pick here (kept by pick-or-page, unchanged since).
      const chars = s.article && s.container === s.article.root ? pickChars(s, s.article) : textLength(s.container);
      if (!dense || dense.score < DENSE_MIN_SHARE_OF_PICK * chars) return;
      if (proseCoverage(dense.el, paras, s.container, pickTextIfContainer(s)) >= MIN_PROSE_COVERAGE) return;
      s.container = dense.el;
      s.overridden = true;
      chose(s, 'densest-prose', 'page', dense.el, 'densest block');
    },
  },
  {
    name: 'standfirst',
    why: "the standfirst between the title and the pick's first paragraph, where Readability does not look: metadata (the excerpt), not body",
    mainOnly: true,
    run: (s) => {
      if (!pickKept(s)) return;
      const lead = leadParagraphs(measured(s).paras, s.container, [s.pageTitle, s.article?.title ?? ''], pickTextIfContainer(s));
      s.standfirst = lead.map((el) => normalisedText(el.textContent ?? '')).join(' ');
      if (lead[0]) chose(s, 'standfirst', 'page', lead[0], 'excerpt');
    },
  },
  {
    name: 'section-headings',
    why: "the article's section headings Readability dropped, put back between the paragraphs it kept",
    mainOnly: true,
    run: (s) => {
      if (!pickKept(s)) return;
      const restored = restoreSectionHeadings(s.container, measured(s).paras, pickTextIfContainer(s)?.trim());
      if (restored.length) pickChanged(s);
      for (const h of restored) chose(s, 'section-headings', 'article', h, 'heading put back');
    },
  },
  {
    name: 'sibling-boxes',
    why: "boxes of the same kind beside the pick's block (a recipe's ingredients and method), put back in page order",
    mainOnly: true,
    run: (s) => {
      if (!pickKept(s)) return;
      // The container is the pick, unless a step before changed it: its measures are then those of pickText and pickChars.
      const pick = s.article && s.container === s.article.root ? s.article : null;
      const joined = pick
        ? withSiblingBoxes(s.container, s.body, measured(s).paras, pickText(s, pick), pickChars(s, pick))
        : withSiblingBoxes(s.container, s.body, measured(s).paras);
      if (joined !== s.container) chose(s, 'sibling-boxes', 'article', joined, 'pick with its sibling boxes');
      s.container = joined;
    },
  },
  {
    name: 'readability-floor',
    why: "Readability's pruned pick replaces a result that holds less than half of its prose: an override lost the article",
    mainOnly: true,
    run: (s) => {
      if (!s.article || !belowFloor(s.article.root, s.container)) return;
      s.container = s.article.root;
      s.source = 'readability';
      chose(s, 'readability-floor', 'article', s.container, 'readability');
    },
  },
  {
    name: 'credits',
    why: 'photo credits and "click to enlarge" cut from captions and alt texts of what is kept; the caption stays',
    mainOnly: false,
    run: (s) => {
      const tree = s.container === s.body || s.body.contains(s.container) ? 'page' : 'article';
      const cut = s.trace ? (el: El, text: string) => s.trace?.push({ ...traceEntry('credits', tree, el), text: text.slice(0, TRACE_TEXT_CHARS) }) : undefined;
      traceRemovals('credits', tree, s.container, s.trace, () => stripCredits(s.container, cut));
    },
  },
];

/** Every name `off` accepts: the noise rules, the steps and the pruning rules. */
export const RULE_NAMES: readonly string[] = [...NOISE_RULES.map((r) => r.name), ...EXTRACT_STEPS.map((s) => s.name), ...PRUNE_RULE_NAMES];

/** Unknown names quoted in the error at most. */
const MAX_UNKNOWN_SHOWN = 5;

/** What is wrong with `off` (after the field's name), or undefined when every name is a rule's or a step's. */
export function unknownRuleNames(off: readonly string[]): string | undefined {
  const unknown = off.filter((name) => !RULE_NAMES.includes(name));
  if (!unknown.length) return undefined;
  // A few are enough to see the mistake; a caller's list of thousands is not echoed back.
  const shown = unknown.slice(0, MAX_UNKNOWN_SHOWN).map((n) => JSON.stringify(n.slice(0, 60)));
  return `no extraction rule named ${shown.join(', ')}${unknown.length > MAX_UNKNOWN_SHOWN ? ', …' : ''} (rules: ${RULE_NAMES.join(', ')})`;
}

/** Names in `off` that no rule or step has: a clear error naming the field, not a switch that silently does nothing. */
export function checkRuleNames(off: readonly string[]): void {
  const problem = unknownRuleNames(off);
  if (problem) throw new Error(`off: ${problem}`);
}

/** Runs the noise rules and the steps in order on `s`, skipping those switched off. */
export function runSteps(s: ExtractState): void {
  // The noise rules in their order (NOISE_RULES), in one walk of the page.
  removeNoise(s.page, s.off, s.trace);
  // The body as the noise rules left it, read once: linkedom's getter inserts a <head> and a <body> when the
  // page's first elements are not those, and what the noise rules removed decides that.
  s.body = (s.page.body ?? s.page.createElement('body')) as unknown as El;
  s.container = s.body;
  // Facts of the cleaned page, read before any step changes it.
  s.h1 = normalisedText(s.page.querySelector('h1')?.textContent ?? '');
  if (s.content === 'main') s.snapshot = s.page.toString();
  for (const step of EXTRACT_STEPS) {
    if ((step.mainOnly && s.content !== 'main') || s.off.has(step.name)) continue;
    if (!step.beforePick) collectArticle(s);
    step.run(s);
  }
  collectArticle(s);
}

/** Waits for Readability's pick if it is being read, and traces it where readability-pick ran. */
function collectArticle(s: ExtractState): void {
  const pending = s.pendingArticle;
  if (!pending) return;
  // The pruned page's measures, taken while Readability's thread still works: the steps after the pick ask
  // them (the page's body no longer changes), and on a long page the thread is the longer of the two.
  measured(s);
  delete s.pendingArticle;
  s.article = pending.collect();
  if (s.article) s.trace?.splice(pending.traceAt, 0, traceEntry('readability-pick', 'article', s.article.root, 'pick'));
}
