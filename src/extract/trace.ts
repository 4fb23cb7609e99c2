// The debug trace of extraction: which step or rule removed which block, and what each decision chose. A
// leaf module, so every rule file can record into it without importing the table that orders them.
import { elementText, type El } from './dom.js';

/**
 * One entry of the trace. A removal names the rule and the top element of the removed block with its text;
 * a decision (which block was kept, what was put back) also says what it chose, and its tag and text are
 * those of the block chosen.
 */
// A type, not an interface: it is a plain record of strings (the tool's output schema says so).
export type RuleTrace = {
  rule: string;
  /** The tree worked on: the page's body ('page') or Readability's pick ('article'); both are pruned, the result keeps one. */
  tree: 'page' | 'article';
  tag: string;
  text: string;
  /** Decisions only: what the step chose ("article", "densest block", "readability", …). */
  chose?: string;
};

/** Characters of a block's text kept in the trace. */
export const TRACE_TEXT_CHARS = 120;

/** An entry for `el`, its text cut to what a reader of the trace needs to recognise the block. */
export function traceEntry(rule: string, tree: RuleTrace['tree'], el: El, chose?: string): RuleTrace {
  return { rule, tree, tag: el.tagName.toLowerCase(), text: elementText(el).slice(0, TRACE_TEXT_CHARS), ...(chose ? { chose } : {}) };
}

/**
 * Runs `run` on `root`; with a trace, lists the top element of every block it removed (out of the root while
 * its parent, if any, is still in it). Without one it only runs: the walk before and after is for debugging.
 */
export function traceRemovals(rule: string, tree: RuleTrace['tree'], root: El, trace: RuleTrace[] | undefined, run: () => void): void {
  if (!trace) {
    run();
    return;
  }
  const before = Array.from(root.querySelectorAll('*')) as El[];
  run();
  for (const el of before) {
    if (root.contains(el)) continue;
    const parent = el.parentElement as El | null;
    if (parent && !root.contains(parent)) continue;
    trace.push(traceEntry(rule, tree, el));
  }
}
