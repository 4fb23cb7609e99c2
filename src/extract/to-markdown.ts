// The kept block → Markdown: Turndown with GFM tables, fenced code blocks that keep their language, compact
// list items, images without inline data, and escapes that follow CommonMark (what it would reinterpret is
// escaped, what it cannot is not). Tables are given header rows first (credits went before, in steps.ts).
import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';
import type { El } from './dom.js';
import { relaxEscapes } from './markdown-escapes.js';
import { turndownTree } from './turndown-tree.js';

/** The element's content as Markdown (the element is prepared for conversion in place). */
export function elementToMarkdown(root: El): string {
  prepareForConversion(root);
  // Turndown's own parse of the HTML is skipped where the tree built from ours is the one it would read.
  const tree = turndownTree(root);
  // Given a node, Turndown works on a copy (cloneNode) to leave the caller's alone; this tree is built for it.
  // That is Turndown 7.2.5's handling of a node, which is why package.json pins it (and domino) exactly.
  const input = tree ? ({ nodeType: 1, cloneNode: () => tree } as unknown as HTMLElement) : root.innerHTML;
  return tidy(converter().turndown(input));
}

/** Marks code-block languages and gives every table a header row, which GFM tables need. */
function prepareForConversion(root: El): void {
  for (const pre of Array.from(root.querySelectorAll('pre'))) {
    const code = pre.querySelector('code');
    const lang = codeLanguage(pre) ?? (code ? codeLanguage(code) : undefined) ?? (pre.parentElement ? codeLanguage(pre.parentElement, true) : undefined);
    if (lang) pre.setAttribute('data-md-lang', lang);
  }
  // Innermost first: a layout table is unwrapped by copying its cells, so the tables inside them must be
  // settled (rowless ones unwrapped, header rows added) before they are copied.
  for (const table of Array.from(root.querySelectorAll('table')).reverse()) {
    // Layout tables (tables in tables) are unwrapped into their cells' content; a table without rows
    // (cells pruned, or never there) is just its text.
    if (!table.querySelector('tr')) {
      const div = table.ownerDocument.createElement('div');
      div.innerHTML = table.innerHTML;
      table.replaceWith(div);
      continue;
    }
    if (table.querySelector('table')) {
      const div = table.ownerDocument.createElement('div');
      for (const cell of Array.from(table.querySelectorAll(':scope > * > tr > td, :scope > tr > td'))) {
        const p = table.ownerDocument.createElement('div');
        p.innerHTML = cell.innerHTML;
        div.appendChild(p);
      }
      table.replaceWith(div);
      continue;
    }
    // Column widths carry no text, and GFM's table rule reads a <colgroup> before the rows as "no header
    // row" and keeps the whole table as raw HTML.
    for (const col of Array.from(table.querySelectorAll('colgroup, col'))) col.remove();
    const firstRow = table.querySelector('tr');
    if (!firstRow || firstRow.parentElement?.tagName === 'THEAD') continue;
    for (const td of Array.from(firstRow.children)) {
      if (td.tagName !== 'TD') continue;
      const th = table.ownerDocument.createElement('th');
      th.innerHTML = td.innerHTML;
      td.replaceWith(th);
    }
  }
}

const LANGUAGE_PATTERNS = [/(?:^|\s)(?:language|lang)-([\w+#.-]+)/i, /(?:^|\s)highlight-(?:source|text)-([\w+#-]+)/i, /brush:\s*([\w+#-]+)/i];

function codeLanguage(el: El, wrapperOnly = false): string | undefined {
  const attr = el.getAttribute('data-language') ?? el.getAttribute('data-lang');
  if (attr && /^[\w+#.-]{1,30}$/.test(attr)) return attr.toLowerCase();
  const cls = el.getAttribute('class') ?? '';
  for (const re of wrapperOnly ? LANGUAGE_PATTERNS.slice(1, 2) : LANGUAGE_PATTERNS) {
    const m = re.exec(cls);
    if (m?.[1]) return m[1].toLowerCase();
  }
  return undefined;
}

/**
 * Every character Turndown's escapes match (a backslash, `*`, a backtick, brackets, `_`) and every first
 * character its anchored ones do (`-`, `+`, `=`, `#`, `~`, `>`, a digit): a text with none is left as it is.
 */
const MAY_ESCAPE = /[\\*`[\]_]|^[-+=#~>\d]/;

let cached: TurndownService | undefined;

function converter(): TurndownService {
  if (cached) return cached;
  const td = new TurndownService({
    headingStyle: 'atx',
    hr: '---',
    bulletListMarker: '-',
    codeBlockStyle: 'fenced',
    emDelimiter: '_',
    strongDelimiter: '**',
    linkStyle: 'inlined',
  });
  td.use(gfm);
  // Turndown escapes "1. " at the start of a text but not "1) ", which CommonMark also reads as a list item.
  const escape = td.escape.bind(td);
  // Most text nodes hold nothing any escape matches: they are returned as they are, without its dozen passes.
  td.escape = (text: string) => (MAY_ESCAPE.test(text) ? escape(text).replace(/^(\d{1,9})\)(?=\s|$)/, '$1\\)') : text);
  // Added after the plugin so these take precedence over its rules and the defaults.
  td.addRule('fencedCodeWithLanguage', {
    filter: (node) => node.nodeName === 'PRE',
    replacement: (_content, node) => {
      const el = node as unknown as El;
      const code = (el.textContent ?? '').replace(/\n$/, '');
      const lang = el.getAttribute('data-md-lang') ?? '';
      const longest = Math.max(2, ...Array.from(code.matchAll(/`{3,}/g), (m) => m[0].length));
      const fence = '`'.repeat(longest + 1);
      return `\n\n${fence}${lang}\n${code}\n${fence}\n\n`;
    },
  });
  // "- item" rather than Turndown's "-   item": the same Markdown in fewer tokens.
  td.addRule('compactListItem', {
    filter: 'li',
    replacement: (content, node, options) => {
      const parent = node.parentNode as unknown as El | null;
      let prefix = `${options.bulletListMarker ?? '-'} `;
      if (parent?.nodeName === 'OL') {
        const start = Number(parent.getAttribute('start') ?? '1');
        const index = Array.prototype.indexOf.call(parent.children, node);
        prefix = `${(Number.isFinite(start) ? start : 1) + index}. `;
      }
      const body = content
        .replace(/^\n+/, '')
        .replace(/\n+$/, '\n')
        .replace(/\n/gm, `\n${' '.repeat(prefix.length)}`);
      return `${prefix}${body}${node.nextSibling && !/\n$/.test(body) ? '\n' : ''}`;
    },
  });
  td.addRule('tableCellOnOneLine', {
    filter: ['th', 'td'],
    replacement: (content, node) => {
      const cell = content
        .replace(/\s*\n+\s*/g, ' ')
        .replace(/\|/g, '\\|')
        .trim();
      const index = Array.prototype.indexOf.call(node.parentNode?.childNodes ?? [], node);
      return `${index === 0 ? '| ' : ' '}${cell} |`;
    },
  });
  td.addRule('imagesWithoutInlineData', {
    filter: 'img',
    replacement: (_content, node) => {
      const el = node as unknown as El;
      const src = el.getAttribute('src') ?? '';
      if (!src || src.startsWith('data:')) return '';
      const alt = (el.getAttribute('alt') ?? '').replace(/[[\]\n]/g, ' ').trim();
      return `![${alt}](${src})`;
    },
  });
  td.addRule('linksWithoutHref', {
    filter: (node) => node.nodeName === 'A' && !(node as unknown as El).getAttribute('href'),
    replacement: (content) => content,
  });
  cached = td;
  return td;
}

/**
 * Characters that render as nothing in running text: soft hyphens (hyphenation hints, shown only at a line
 * break) and zero-width spaces and joiners used as break hints. Left in, they split words for a reader
 * that searches or tokenises the text. The zero-width joiner (U+200D) stays: it binds emoji sequences.
 */
const INVISIBLE = /[\u00ad\u200b\u200c\u2060\ufeff]/g;

const LETTER_OR_DIGIT_AFTER = /^[\p{L}\p{N}]/u;
const LETTER_OR_DIGIT_BEFORE = /[\p{L}\p{N}]$/u;

/**
 * `\_` → `_` between letters or digits: what `/(?<=[\p{L}\p{N}])\\_(?=[\p{L}\p{N}])/gu` does, the neighbours
 * read only where an escaped underscore stands (the look-behind was tried at every character of the text).
 * Two code units on each side hold the neighbouring code point, a surrogate pair included.
 */
function unescapeInWord(match: string, at: number, md: string): string {
  return LETTER_OR_DIGIT_BEFORE.test(md.slice(Math.max(0, at - 2), at)) && LETTER_OR_DIGIT_AFTER.test(md.slice(at + 2, at + 4)) ? '_' : match;
}

function tidy(md: string): string {
  return `${relaxEscapes(md)
    .replace(INVISIBLE, '')
    // An underscore inside a word cannot start emphasis (CommonMark), so Turndown's escape there is noise.
    .replace(/\\_/g, unescapeInWord)
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}
