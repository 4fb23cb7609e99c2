// XML: an RSS, RDF or Atom feed becomes its title and items (title with link, date, summary as text);
// any other XML is returned as it is, fenced. fast-xml-parser (MIT) reads it; entities are never
// fetched, and its own limits bound entity expansion.
import { XMLParser } from 'fast-xml-parser';
import { ToolError } from '../../errors.js';
import type { DocumentText } from './document-text.js';
import { decodeText } from './text-file.js';

type Xml = Record<string, unknown>;

/** Items per feed put in the Markdown. */
const MAX_ITEMS = 500;

function list(value: unknown): Xml[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).filter((v): v is Xml => typeof v === 'object' && v !== null);
}

/** Text of a node that may be a string, a number, or an element with text and attributes. */
function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return textOf(value[0]);
  if (typeof value === 'object') return textOf((value as Xml)['#text']);
  return '';
}

/** Feed summaries are often HTML: tags out, entities decoded, white space collapsed. */
function plain(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

function atomLink(entry: Xml): string {
  const links = list(entry.link);
  const alternate = links.find((l) => l['@_rel'] === undefined || l['@_rel'] === 'alternate') ?? links[0];
  return alternate ? String(alternate['@_href'] ?? '') : textOf(entry.link);
}

interface FeedItem {
  title: string;
  link: string;
  date: string;
  summary: string;
}

function itemMarkdown(item: FeedItem): string {
  const title = item.title.trim() || item.link || '(untitled)';
  const heading = item.link ? `## [${title.replace(/[[\]]/g, '\\$&')}](${item.link.replace(/[()\s]/g, encodeURIComponent)})` : `## ${title}`;
  return [heading, item.date, item.summary].filter((s) => s !== '').join('\n\n');
}

export function readXml(bytes: Uint8Array): DocumentText {
  const text = decodeText(bytes);
  let doc: Xml;
  try {
    doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', removeNSPrefix: true, processEntities: true, htmlEntities: true }).parse(
      text,
      true,
    ) as Xml;
  } catch (err) {
    throw new ToolError(`The XML could not be read: ${(err as Error).message}`, 'input');
  }
  const rss = doc.rss as Xml | undefined;
  const rdf = doc.RDF as Xml | undefined;
  const atom = doc.feed as Xml | undefined;
  let title = '';
  let items: FeedItem[] | undefined;
  if (rss || rdf) {
    const channel = list((rss ?? rdf)!.channel)[0] ?? {};
    title = plain(textOf(channel.title));
    items = list(channel.item ?? rdf?.item).map((i) => ({
      title: plain(textOf(i.title)),
      link: textOf(i.link).trim(),
      date: textOf(i.pubDate ?? i.date).trim(),
      summary: plain(textOf(i.description ?? i.encoded)),
    }));
  } else if (atom) {
    title = plain(textOf(atom.title));
    items = list(atom.entry).map((e) => ({
      title: plain(textOf(e.title)),
      link: atomLink(e),
      date: textOf(e.updated ?? e.published).trim(),
      summary: plain(textOf(e.summary ?? e.content)),
    }));
  }
  if (items === undefined) {
    const body = text.trim();
    const fence = '`'.repeat(Math.max(3, ...Array.from(body.matchAll(/`{3,}/g), (m) => m[0].length + 1)));
    return { type: 'xml', title: '', markdown: `${fence}xml\n${body}\n${fence}` };
  }
  const shown = items.slice(0, MAX_ITEMS);
  const parts = [...(title ? [`# ${title}`] : []), ...shown.map(itemMarkdown)];
  if (items.length > shown.length) parts.push(`*(${items.length - shown.length} more items not shown)*`);
  return { type: 'feed', title, markdown: parts.join('\n\n') };
}
