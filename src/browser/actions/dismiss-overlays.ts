// dismiss_overlays: answers a cookie-consent dialog the way a privacy-minded reader would (its decline or
// "necessary only" button, else its close button; never "accept"), then removes what still covers the
// page: consent bars and dialogs, and fixed layers stacked over most of the viewport (modal walls and
// their backdrops), and lets a page scroll again that a modal had frozen. Built from what consent managers
// share (dialog roles, aria-modal, fixed position with a high z-index, button wording as data), so no rule
// names a site. Consent managers that draw their dialog in a frame are answered inside that frame.
import type { Frame, Page } from 'playwright-core';
import { readPage } from '../page-reads.js';
import { CLOSE_PHRASES, CONSENT_WORDS, REJECT_PHRASES } from './overlay-vocabulary.js';

export interface OverlayReport {
  /** The button clicked, by its text ("reject all"), or null when none was. */
  clicked: string | null;
  /** Overlays taken out of the page. */
  removed: number;
}

interface Vocabulary {
  consent: readonly string[];
  reject: readonly string[];
  close: readonly string[];
}

const VOCABULARY: Vocabulary = { consent: CONSENT_WORDS, reject: REJECT_PHRASES, close: CLOSE_PHRASES };
/** Elements whose style is read when looking for fixed layers: bounds the work on huge pages. */
const MAX_STYLED = 20_000;

export async function dismissOverlays(page: Page, deadline: number): Promise<OverlayReport> {
  let clicked: string | null = null;
  for (const frame of page.frames()) {
    if (Date.now() >= deadline) break;
    clicked = await answerIn(frame);
    if (clicked !== null) break;
  }
  // The dialog's own handlers close it (often with a transition): give them a moment, then clean up. Many
  // consent managers reload the page once answered: the clean-up is then made on the reloaded document.
  if (clicked !== null) await page.waitForTimeout(Math.max(0, Math.min(300, deadline - Date.now())));
  const removed = await readPage(page, removeOverlays, { vocab: VOCABULARY, maxStyled: MAX_STYLED }).catch(() => 0);
  return { clicked, removed };
}

async function answerIn(frame: Frame): Promise<string | null> {
  // Not made again when a navigation interrupts it: it clicks, and the click is what navigated (a consent
  // manager reloading the page). Frames' documents are not the main world DevTools evaluates in, hence
  // frame.evaluate.
  try {
    return await frame.evaluate(clickDecline, { vocab: VOCABULARY, maxStyled: MAX_STYLED, isTop: frame.parentFrame() === null });
  } catch {
    // A frame that went away, or one scripts cannot reach: nothing to answer there.
    return null;
  }
}

// ---- In the page (serialised by Playwright: each function is self-contained) ----

/** In one frame: finds consent dialogs and clicks their decline (or close) button; returns its text. */
function clickDecline({ vocab, maxStyled, isTop }: { vocab: Vocabulary; maxStyled: number; isTop: boolean }): string | null {
  const norm = (s: string | null | undefined) =>
    (s ?? '')
      .replace(/\s+/g, ' ')
      .trim()
      .toLowerCase()
      .replace(/[.!:]+$/, '');
  // A notice is short and asks something (a button); a page shell or a sticky header that merely links
  // to a privacy page is neither.
  const mentionsConsent = (el: Element) => {
    const text = norm((el as HTMLElement).innerText ?? el.textContent);
    if (text.length > 4000 || !el.querySelector('button,[role=button],input[type=button],input[type=submit],a')) return false;
    return vocab.consent.some((w) => text.includes(w));
  };
  const visible = (el: Element) => {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    const s = getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0.05;
  };
  const containers: Element[] = [];
  for (const el of Array.from(
    document.querySelectorAll(
      '[role=dialog],[role=alertdialog],[aria-modal=true],dialog[open],[aria-label*=cookie i],[id*=consent i],[class*=consent i],[id*=cookie i],[class*=cookie i]',
    ),
  )) {
    if (visible(el) && mentionsConsent(el)) containers.push(el);
  }
  const body = document.body;
  if (body) {
    const all = body.getElementsByTagName('*');
    for (let i = 0; i < all.length && i < maxStyled; i++) {
      const el = all[i]!;
      const pos = getComputedStyle(el).position;
      if ((pos === 'fixed' || pos === 'sticky') && visible(el) && mentionsConsent(el)) containers.push(el);
    }
    // A consent manager's own frame: its whole document is the dialog.
    if (!isTop && mentionsConsent(body)) containers.push(body);
  }
  const label = (el: Element) =>
    norm((el as HTMLElement).innerText || el.getAttribute('aria-label') || (el as HTMLInputElement).value || el.getAttribute('title'));
  const matches = (text: string, phrases: readonly string[]) => phrases.some((p) => text === p || (p.length > 4 && text.startsWith(`${p} `)));
  for (const wanted of [vocab.reject, vocab.close]) {
    for (const container of containers) {
      for (const button of Array.from(container.querySelectorAll('button,[role=button],a,input[type=button],input[type=submit]'))) {
        if (!visible(button)) continue;
        const text = label(button);
        const aria = norm(button.getAttribute('aria-label'));
        if (matches(text, wanted) || (wanted === vocab.close && matches(aria, wanted))) {
          (button as HTMLElement).click();
          return text || aria;
        }
      }
    }
  }
  return null;
}

/** In the top frame: removes consent layers and fixed layers over most of the viewport; returns how many. */
function removeOverlays({ vocab, maxStyled }: { vocab: Vocabulary; maxStyled: number }): number {
  const body = document.body;
  if (!body) return 0;
  const viewportArea = window.innerWidth * window.innerHeight;
  const text = (el: Element) => ((el as HTMLElement).innerText ?? el.textContent ?? '').toLowerCase();
  const mentionsConsent = (el: Element) => {
    const t = text(el);
    const asks = !!el.querySelector('button,[role=button],input[type=button],input[type=submit]');
    if (asks && t.length < 4000 && vocab.consent.some((w) => t.includes(w))) return true;
    // A consent manager drawing in a frame: its frame's name or title says what it is.
    return Array.from(el.querySelectorAll('iframe')).some((f) => {
      const names = `${f.title} ${f.name} ${f.id}`.toLowerCase();
      return vocab.consent.some((w) => names.includes(w));
    });
  };
  const doomed: Element[] = [];
  const all = body.getElementsByTagName('*');
  for (let i = 0; i < all.length && i < maxStyled; i++) {
    const el = all[i]!;
    if (doomed.some((d) => d.contains(el))) continue;
    const style = getComputedStyle(el);
    const modal = el.getAttribute('aria-modal') === 'true' || (el.tagName === 'DIALOG' && (el as HTMLDialogElement).open);
    const layered = style.position === 'fixed' || style.position === 'sticky';
    if (!modal && !layered) continue;
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    const shown =
      Math.max(0, Math.min(r.right, window.innerWidth) - Math.max(r.left, 0)) * Math.max(0, Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0));
    const zIndex = Number.parseInt(style.zIndex, 10);
    // A wall or backdrop: stacked above the page (a z-index set) and over most of what the reader sees.
    const covering = style.position === 'fixed' && Number.isFinite(zIndex) && zIndex > 0 && shown >= viewportArea * 0.5;
    if (covering || ((modal || layered) && mentionsConsent(el))) doomed.push(el);
  }
  for (const el of doomed) el.remove();
  // A modal freezes the page behind it (overflow: hidden on the root or body); the capture needs it back.
  for (const el of [document.documentElement, body]) {
    if (getComputedStyle(el).overflowY === 'hidden') el.style.setProperty('overflow', 'visible', 'important');
  }
  return doomed.length;
}
