// Small readings of the parsed page that the pruning rules share: an element's text as the reader sees it
// (whitespace collapsed), a heading's rank, and the section a heading opens.
import type { El } from './boilerplate.js';

export function collapseSpace(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

export function elementText(el: El): string {
  return collapseSpace(el.textContent ?? '');
}

/** 1–6 for H1–H6; 7 for anything else (a bold label heads less than any heading). */
export function headingRank(el: El): number {
  return /^H[1-6]$/.test(el.tagName) ? Number(el.tagName[1]) : 7;
}

/**
 * The heading, the wrappers it is alone in ("<div><h3>Related</h3></div><ul>…"), and the siblings after it
 * until a heading that outranks or equals it, or a sibling `endsBefore` says belongs to what follows.
 */
export function sectionOf(heading: El, root: El, endsBefore: (sib: El, level: number) => boolean = () => false): El[] {
  const level = headingRank(heading);
  const own = elementText(heading);
  let start: El = heading;
  while (start.parentElement && start.parentElement !== root && elementText(start.parentElement as El) === own) start = start.parentElement as El;
  const section: El[] = [start];
  for (let sib = start.nextElementSibling as El | null; sib; sib = sib.nextElementSibling as El | null) {
    if (/^H[1-6]$/.test(sib.tagName) && headingRank(sib) <= level) break;
    if (endsBefore(sib, level)) break;
    section.push(sib);
  }
  return section;
}
