// Label words are data (lexicon/labels.ts), one list per language: every language's labels are read by the
// rules that judge headings and lines, and prose that merely uses the words is not a label.
import { describe, expect, it } from 'vitest';
import { isBoilerplateLine, isSectionHeading } from '../../src/extract/boilerplate-text.js';
import { ADVERT_LABELS, SECTION_LABELS, SHARE_LABELS } from '../../src/extract/lexicon/labels.js';

describe('label words per language', () => {
  it('has section labels for every language, each read as a section heading', () => {
    const examples: Record<keyof typeof SECTION_LABELS, string> = {
      en: 'Related articles',
      de: 'Das könnte Sie auch interessieren',
      fr: 'À lire aussi',
      es: 'Noticias relacionadas',
      it: 'Articoli correlati',
      pt: 'Veja também',
      nl: 'Lees ook',
      pl: 'Czytaj także',
    };
    for (const [lang, heading] of Object.entries(examples)) {
      expect(SECTION_LABELS[lang as keyof typeof SECTION_LABELS].length, lang).toBeGreaterThan(0);
      expect(isSectionHeading(heading), heading).toBe(true);
    }
  });

  it('reads every advert and share label of the data as a boilerplate line', () => {
    for (const word of Object.values(ADVERT_LABELS).flat()) expect(isBoilerplateLine(word.toUpperCase()), word).toBe(true);
    for (const word of Object.values(SHARE_LABELS).flat()) expect(isBoilerplateLine(`${word}:`), word).toBe(true);
  });

  it('leaves sentences that use the words alone', () => {
    for (const s of [
      'Related articles were found in the archive of the orchard.',
      'Lees ook de brief van de boer over de oogst.',
      'Share the harvest with the neighbours.',
    ])
      expect(isSectionHeading(s) || isBoilerplateLine(s), s).toBe(false);
  });
});
