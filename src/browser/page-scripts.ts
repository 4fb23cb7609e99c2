// Functions that run inside the page (Playwright serialises them, so each is self-contained). They read
// the rendered DOM: what scripts produced, with layout, which the static HTML does not show.

export interface SerialisedPage {
  html: string;
  title: string;
  url: string;
}

/**
 * For Markdown: drops what is not visible, turns every link and image URL into an absolute one (and drops
 * javascript: links), and returns the resulting document. Computed styles are only consulted up to
 * `maxStyled` elements, to bound the time on huge pages.
 *
 * Some pages hide their content until their own scripts run: the whole body (`visibility: hidden` against
 * a flash of unstyled text, or a `no-js` class), or the article's wrapper (`display: none`, shown by a
 * script). When scripts are off, blocked or failed, a reader of the rendered page would see nothing, yet
 * the text is there. A hidden block that holds more than twice the prose of everything visible together,
 * and at least `HIDDEN_CONTENT_MIN_CHARS` of it, is such content and is kept; menus, pop-ups and closed
 * tabs are smaller than the page they belong to, or made of links.
 *
 * The page's declarations about itself are never rendered, so they are not "hidden": `<meta>` and JSON-LD
 * blocks stay wherever they are. Many pages have them in the body (JSON-LD placed there, or a head that the
 * HTML parser closed early, which moves the head's meta tags into the body), and the metadata step reads them.
 */
export function serialiseVisibleDocument(maxStyled: number): SerialisedPage {
  const HIDDEN_CONTENT_MIN_CHARS = 500;
  const elements = document.body ? Array.from(document.body.querySelectorAll('*')) : [];
  const hidden: Element[] = [];
  const styled = elements.length <= maxStyled;
  // Visibility is inherited: only the element that sets it is listed, so keeping it keeps its subtree.
  const bodyHidden = !!document.body && getComputedStyle(document.body).visibility === 'hidden';
  if (bodyHidden) hidden.push(document.body);
  for (const el of elements) {
    if (el.tagName === 'META' || (el.tagName === 'SCRIPT' && el.getAttribute('type')?.trim().toLowerCase() === 'application/ld+json')) continue;
    if (el.hasAttribute('hidden') || el.getAttribute('aria-hidden') === 'true') {
      hidden.push(el);
      continue;
    }
    if (!styled) continue;
    const style = getComputedStyle(el);
    if (style.display === 'none') hidden.push(el);
    else if (style.visibility === 'hidden' && (!el.parentElement || getComputedStyle(el.parentElement).visibility !== 'hidden')) hidden.push(el);
  }
  // Prose: words of text outside links, scripts and styles (an encoded blob is no words).
  const prose = (root: Element) => {
    let chars = 0;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement?.closest('a, script, style, noscript, template')) continue;
      for (const word of (node.nodeValue ?? '').split(/\s+/)) if (word.length <= 30) chars += word.length + 1;
    }
    return chars;
  };
  // Hidden elements grouped under their nearest hidden ancestor (or none): a kept block's own hidden
  // parts are judged against what it shows, as the page's are against the visible page.
  const listed = new Set(hidden);
  const inside = new Map<Element | null, Element[]>();
  for (const el of hidden) {
    let up = el.parentElement;
    while (up && !listed.has(up)) up = up.parentElement;
    // Appended in place: copying the group for each member was quadratic on pages with thousands of
    // hidden icons under one scope.
    const group = inside.get(up);
    if (group) group.push(el);
    else inside.set(up, [el]);
  }
  const kept = new Set<Element>();
  const keepContent = (scope: Element | null, scopeProse: number) => {
    const group = (inside.get(scope) ?? []).map((el) => ({ el, chars: prose(el) }));
    const shown = scopeProse - group.reduce((sum, h) => sum + h.chars, 0);
    for (const h of group) {
      if (h.chars < HIDDEN_CONTENT_MIN_CHARS || h.chars <= 2 * shown) continue;
      kept.add(h.el);
      keepContent(h.el, h.chars);
    }
  };
  if (document.body) keepContent(null, prose(document.body));
  // With scripts on, <noscript> is hidden and its markup was never parsed; checked on every page because
  // Node-side conversion would otherwise parse and show it.
  for (const el of Array.from(document.querySelectorAll('noscript'))) {
    if (getComputedStyle(el).display === 'none') hidden.push(el);
  }
  for (const el of hidden) {
    if (kept.has(el)) continue;
    if (el === document.body) el.replaceChildren();
    else el.remove();
  }
  for (const a of Array.from(document.querySelectorAll<HTMLAnchorElement>('a[href]'))) {
    if (/^\s*javascript:/i.test(a.getAttribute('href') ?? '')) a.removeAttribute('href');
    else a.setAttribute('href', a.href);
  }
  for (const img of Array.from(document.querySelectorAll<HTMLImageElement>('img'))) {
    const src = img.currentSrc || img.src;
    if (src) img.setAttribute('src', src);
    img.removeAttribute('srcset');
  }
  return { html: document.documentElement.outerHTML, title: document.title, url: location.href };
}

export interface RawLink {
  href: string;
  text: string;
}

/** Every a[href] and area[href] of the document, resolved by the browser (honours <base>). */
export function collectLinks(max: number): RawLink[] {
  const out: RawLink[] = [];
  for (const el of Array.from(document.querySelectorAll<HTMLAnchorElement | HTMLAreaElement>('a[href], area[href]'))) {
    if (out.length >= max) break;
    const img = el.querySelector('img[alt]');
    const text =
      (el instanceof HTMLAnchorElement ? el.innerText : '') ||
      el.getAttribute('aria-label') ||
      el.getAttribute('title') ||
      el.getAttribute('alt') ||
      img?.getAttribute('alt') ||
      '';
    out.push({ href: el.href, text: text.replace(/\s+/g, ' ').trim() });
  }
  return out;
}

export type SelectorOutcome = { key: string; texts: string[] } | { key: string; error: string };

/**
 * For each [key, selector, attr]: the trimmed rendered text of every element the selector matches, or with
 * an attribute name the attribute's value as written (elements without it are skipped); at most `maxPerKey`.
 */
export function scrapeSelectors({ select, maxPerKey }: { select: [string, string, string | null][]; maxPerKey: number }): SelectorOutcome[] {
  return select.map(([key, selector, attr]) => {
    let found: Element[];
    try {
      found = Array.from(document.querySelectorAll(selector));
    } catch (err) {
      return { key, error: (err as Error).message };
    }
    const texts: string[] = [];
    for (const el of found) {
      if (texts.length >= maxPerKey) break;
      if (attr === null) texts.push(((el instanceof HTMLElement ? el.innerText : el.textContent) ?? '').trim());
      else if (el.hasAttribute(attr)) texts.push(el.getAttribute(attr) ?? '');
    }
    return { key, texts };
  });
}

/** The page's full document height in CSS pixels (what a full-page screenshot would capture). */
export function documentHeight(): number {
  const d = document.documentElement;
  const b = document.body;
  return Math.max(d.scrollHeight, d.offsetHeight, b?.scrollHeight ?? 0, b?.offsetHeight ?? 0);
}

/** Resolves true at the next DOM change, or false when none happens within `timeoutMs`. */
export function nextMutation(timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      observer.disconnect();
      clearTimeout(timer);
      resolve(true);
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    const timer = setTimeout(() => {
      observer.disconnect();
      resolve(false);
    }, timeoutMs);
  });
}

/**
 * True when the viewport visibly shows text or a replaced element (image, canvas, video, form control…):
 * such a page is not blank, and the pixel check can be skipped. False means "look at the pixels".
 */
export function viewportHasContent(): boolean {
  const vw = innerWidth;
  const vh = innerHeight;
  const inView = (r: DOMRect) => r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < vh && r.left < vw;
  const visible = (el: Element | null) => {
    if (!el) return false;
    const s = getComputedStyle(el);
    return s.visibility !== 'hidden' && s.opacity !== '0';
  };
  const root = document.body ?? document.documentElement;
  if (!root) return false;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  let checked = 0;
  for (let node = walker.nextNode(); node && checked < 2000; node = walker.nextNode()) {
    if (!node.textContent?.trim()) continue;
    checked++;
    range.selectNodeContents(node);
    if (Array.from(range.getClientRects()).some(inView) && visible(node.parentElement)) return true;
  }
  for (const el of Array.from(root.querySelectorAll('img, svg, canvas, video, iframe, embed, object, input, button, textarea, select')).slice(0, 2000)) {
    if (inView(el.getBoundingClientRect()) && visible(el)) return true;
  }
  return false;
}

/**
 * The document as HTML with its doctype, as page.content() gives it, read in the page's own world:
 * page.content() runs in Playwright's utility world, whose first use on a page injects Playwright's script
 * (tens of ms of CPU per page, as much as the rest of a short page's render).
 */
export function documentHtml(): string {
  const doctype = document.doctype ? new XMLSerializer().serializeToString(document.doctype) : '';
  return doctype + (document.documentElement ? document.documentElement.outerHTML : '');
}
