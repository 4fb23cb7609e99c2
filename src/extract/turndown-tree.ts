// Turndown reads its input with its own HTML parser (domino, the HTML standard's algorithm): handed the kept
// block's HTML, it parses again what linkedom already holds, and on a long article the serialisation and that
// second parse were about half of the conversion to Markdown. Here domino's tree is built from linkedom's node
// by node instead, but only where the standard's parser, reading the serialised HTML, would build that same
// tree: no element it treats apart (raw text, tables, forms, foreign content), no block that would close an
// open <p>, no link in a link, no list item that would close another, text as the serialisation and the
// parser's input stream would leave it (adjacent text nodes joined, CR LF as LF, the line feed after <pre>
// dropped), attribute values decoded as the parser decodes them. Anything else gives null, and the caller
// hands Turndown the HTML as before: the Markdown is the same either way (test/unit/extract-turndown-tree.test.ts
// converts both ways).
import { createDocument } from '@mixmark-io/domino';
import type { El } from './dom.js';

/**
 * Tags the parser treats apart inside a body: raw text and RCDATA, table parts, forms and their controls,
 * markers of the formatting list, foreign content, tags it ignores or renames, and linkedom's void elements
 * that are not void to the parser.
 */
const PARSED_APART = new Set(
  (
    'html head body frameset frame base basefont bgsound link meta noframes script style template title plaintext listing xmp ' +
    'form button input select option optgroup textarea keygen applet marquee object embed param area iframe noembed ' +
    'noscript table caption colgroup col tbody thead tfoot tr td th image menuitem nobr rb rtc rp rt math svg search isindex'
  ).split(' '),
);
/** Start tags that close an open <p> (the parser's "p in button scope"), in any version of the standard. */
const CLOSES_P = new Set(
  (
    'address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer header hgroup main ' +
    'menu nav ol p section summary ul h1 h2 h3 h4 h5 h6 pre listing form plaintext li dd dt table hr xmp search'
  ).split(' '),
);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Void elements built here: no end tag, so no children (linkedom's others are parsed apart). */
const VOID = new Set(['br', 'hr', 'img', 'source', 'track', 'wbr']);
/** Lists: a list item's start tag looks for an open item to close no further up than these. */
const LISTS = new Set(['ul', 'ol', 'menu', 'dl']);
/** A tag name the tokenizer reads back as itself (it lower-cases, and ends a name at white space, "/" or ">"). */
const TAG_NAME = /^[a-z][^\s/>A-Z\0]*$/;
const ATTRIBUTE_NAME = /^[^\s"'<>/=A-Z\0]+$/;
/** Attribute values the parser reads back differently from their serialisation: character references, CR, NUL. */
const DECODED_APART = /[&\r\0]/;
/** Deeper than this the HTML is handed over (Turndown's own walk of it is recursive too). */
const MAX_DEPTH = 400;

/** Linkedom's serialisation leaves these out when empty (other empty attributes are written bare, read as ""). */
const DROPPED_WHEN_EMPTY = new Set(['id', 'class', 'style']);

/**
 * What the parser itself calls on domino's nodes: appending without the DOM method's checks (the tree is
 * built in document order, each node new), and setting an attribute without checking its name (the
 * tokenizer read it; linkedom's name is the one it read).
 */
interface ParserNode extends Node {
  _appendChild(child: Node): void;
}
interface ParserElement extends Element {
  _setAttribute(name: string, value: string): void;
}

/** The tree cannot be built as the parser would build it. */
class NotAsParsed extends Error {}

/** Attribute values with references, CR or NUL, as the parser reads them from the serialisation (`"` written as &quot;). */
const decoded = new Map<string, string>();
const MAX_DECODED = 5_000;

function decodeAttribute(value: string): string {
  let out = decoded.get(value);
  if (out === undefined) {
    const doc = createDocument(`<x-a v="${value.replace(/"/g, '&quot;')}"></x-a>`);
    out = doc.body.firstElementChild?.getAttribute('v') ?? '';
    if (decoded.size >= MAX_DECODED) decoded.clear();
    decoded.set(value, out);
  }
  return out;
}

interface Walk {
  doc: Document;
  /** Tag names of the open elements inside the root, outermost first. */
  open: string[];
  paragraphs: number;
  links: number;
}

/**
 * The children of `root` as domino's tree inside Turndown's root element (`<x-turndown id="turndown-root">`, as
 * Turndown wraps an HTML string), or null when the parser would read the serialised HTML into another tree.
 */
export function turndownTree(root: El): HTMLElement | null {
  const doc = createDocument('<x-turndown id="turndown-root"></x-turndown>');
  const out = doc.getElementById('turndown-root');
  if (!out) return null;
  try {
    copyChildren(root, out as unknown as ParserNode, { doc, open: [], paragraphs: 0, links: 0 }, false);
  } catch (err) {
    // domino refuses a tag name linkedom took (createElement checks it; the parser does not): the parser is the judge then.
    if (err instanceof NotAsParsed || (err instanceof Error && err.name === 'InvalidCharacterError')) return null;
    throw err;
  }
  return out;
}

function copyChildren(from: El, to: ParserNode, walk: Walk, pre: boolean): void {
  let text = '';
  // Inside <pre>: the parser drops a line feed that comes first, before any other token.
  let first = pre;
  const flush = () => {
    if (!text) return;
    let data = text.replace(/\r\n?/g, '\n');
    if (first && data.startsWith('\n')) data = data.slice(1);
    first = false;
    text = '';
    if (data) to._appendChild(walk.doc.createTextNode(data));
  };
  for (let node = from.firstChild as El | null; node; node = node.nextSibling as El | null) {
    const type = node.nodeType;
    if (type === 3) {
      const data = (node as unknown as CharacterData).data;
      if (data.includes('\0')) throw new NotAsParsed();
      text += data;
    } else if (type === 1) {
      flush();
      first = false;
      to._appendChild(copyElement(node, walk));
    } else if (type === 8) {
      const data = (node as unknown as CharacterData).data;
      // Read back as the same comment only when nothing in it can end or open one early.
      if (/[<>]|--|^-|-$/.test(data)) throw new NotAsParsed();
      flush();
      first = false;
      to._appendChild(walk.doc.createComment(data));
    } else throw new NotAsParsed();
  }
  flush();
}

function copyElement(from: El, walk: Walk): Element {
  const name = from.localName;
  const { open } = walk;
  if (!TAG_NAME.test(name) || PARSED_APART.has(name) || open.length >= MAX_DEPTH) throw new NotAsParsed();
  if ((walk.paragraphs > 0 && CLOSES_P.has(name)) || (name === 'a' && walk.links > 0)) throw new NotAsParsed();
  if (HEADINGS.has(name) && HEADINGS.has(open[open.length - 1] ?? '')) throw new NotAsParsed();
  if (name === 'li' || name === 'dd' || name === 'dt') {
    for (let i = open.length - 1; i >= 0; i--) {
      const tag = open[i]!;
      if (LISTS.has(tag)) break;
      if (name === 'li' ? tag === 'li' : tag === 'dd' || tag === 'dt') throw new NotAsParsed();
    }
  }
  const el = walk.doc.createElement(name) as unknown as ParserElement & ParserNode;
  for (const attr of Array.from(from.attributes)) {
    const { name: attrName, value } = attr;
    if (!ATTRIBUTE_NAME.test(attrName)) throw new NotAsParsed();
    if (value === '' && DROPPED_WHEN_EMPTY.has(attrName)) continue;
    el._setAttribute(attrName, DECODED_APART.test(value) ? decodeAttribute(value) : value);
  }
  if (VOID.has(name)) {
    if (from.firstChild) throw new NotAsParsed();
    return el;
  }
  open.push(name);
  if (name === 'p') walk.paragraphs++;
  if (name === 'a') walk.links++;
  copyChildren(from, el, walk, name === 'pre');
  if (name === 'p') walk.paragraphs--;
  if (name === 'a') walk.links--;
  open.pop();
  return el;
}
