// HTML that did not come through the page script (the server's original copy of a page) still has the
// relative URLs it was written with. The page script makes every link and image absolute and drops
// javascript: links; this does the same on a parsed document, so its Markdown links work outside the page.

/** The few DOM members used here, as linkedom and browsers both have them. */
interface Node {
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
}
interface Doc {
  querySelector(selector: string): Node | null;
  querySelectorAll(selector: string): Iterable<Node> | ArrayLike<Node>;
}

const URL_ATTRIBUTES: [selector: string, attribute: string][] = [
  ['a[href]', 'href'],
  ['img[src]', 'src'],
  ['source[src]', 'src'],
  ['video[poster]', 'poster'],
];

/** Resolves link and image URLs against `pageUrl` (or the document's own <base href>), in place. */
export function makeLinksAbsolute(doc: Doc, pageUrl: string): void {
  const base = resolve(doc.querySelector('base[href]')?.getAttribute('href') ?? '', pageUrl) ?? pageUrl;
  for (const [selector, attribute] of URL_ATTRIBUTES) {
    for (const el of Array.from(doc.querySelectorAll(selector))) {
      const absolute = resolve(el.getAttribute(attribute) ?? '', base);
      if (absolute === undefined || absolute.startsWith('javascript:')) el.removeAttribute(attribute);
      else el.setAttribute(attribute, absolute);
    }
  }
  // srcset lists are not read for Markdown; a relative one would only mislead.
  for (const el of Array.from(doc.querySelectorAll('img[srcset], source[srcset]'))) el.removeAttribute('srcset');
}

function resolve(url: string, base: string): string | undefined {
  try {
    return new URL(url.trim(), base).href;
  } catch {
    return undefined;
  }
}
