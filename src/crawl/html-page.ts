// What the crawler reads from a page's HTML without a browser: links (resolved against <base href>), the
// title, the metadata an agent asks for (description, canonical, language, Open Graph) and the robots
// meta tag (nofollow: do not follow its links). htmlparser2 streams the document, so a large page costs
// no DOM.
import { Parser } from 'htmlparser2';

export interface PageMetadata {
  title: string;
  description: string | null;
  canonical: string | null;
  language: string | null;
  og: Record<string, string>;
  robots: string | null;
}

export interface ParsedHtml {
  metadata: PageMetadata;
  /** Absolute http(s) URLs in document order (raw, not yet normalised), with their link text. */
  links: { url: string; text: string }[];
  /** The robots meta tag says nofollow. */
  nofollow: boolean;
}

const MAX_LINKS = 10_000;
const OG_FIELDS = new Set(['og:title', 'og:description', 'og:type', 'og:image', 'og:url', 'og:site_name']);

export function parseHtml(html: string, pageUrl: string): ParsedHtml {
  let base = pageUrl;
  let title = '';
  let inTitle = false;
  const hrefs: { href: string; text: string }[] = [];
  /** The <a> whose text is being read. */
  let openLink: { href: string; text: string } | null = null;
  const metadata: PageMetadata = { title: '', description: null, canonical: null, language: null, og: {}, robots: null };
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        switch (name) {
          case 'base':
            if (attrs.href) base = resolve(attrs.href, pageUrl) ?? base;
            break;
          case 'a':
          case 'area':
            if (attrs.href && hrefs.length < MAX_LINKS && !/\bnofollow\b/i.test(attrs.rel ?? '')) {
              const link = { href: attrs.href, text: attrs.title ?? attrs.alt ?? '' };
              hrefs.push(link);
              if (name === 'a') openLink = link;
            }
            break;
          case 'title':
            inTitle = true;
            break;
          case 'html':
            if (attrs.lang) metadata.language = attrs.lang.trim() || null;
            break;
          case 'link':
            if (/\bcanonical\b/i.test(attrs.rel ?? '') && attrs.href) metadata.canonical = attrs.href;
            break;
          case 'meta': {
            const key = (attrs.name ?? attrs.property ?? '').toLowerCase();
            const content = attrs.content?.trim() ?? '';
            if (key === 'description') metadata.description = content;
            else if (key === 'robots' || key === 'agent-utility') metadata.robots = content.toLowerCase();
            else if (OG_FIELDS.has(key) && content) metadata.og[key] = content;
            break;
          }
        }
      },
      ontext(text) {
        if (inTitle) title += text;
        if (openLink && openLink.text.length < 300) openLink.text += text;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        if (name === 'a') openLink = null;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  metadata.title = title.replace(/\s+/g, ' ').trim();
  if (metadata.canonical) metadata.canonical = resolve(metadata.canonical, base);
  const links: { url: string; text: string }[] = [];
  for (const { href, text } of hrefs) {
    const abs = resolve(href, base);
    if (abs && /^https?:/i.test(abs)) links.push({ url: abs, text: text.replace(/\s+/g, ' ').trim() });
  }
  return { metadata, links, nofollow: /\bnofollow\b|\bnone\b/.test(metadata.robots ?? '') };
}

function resolve(href: string, base: string): string | null {
  try {
    return new URL(href.trim(), base).href;
  } catch {
    return null;
  }
}
