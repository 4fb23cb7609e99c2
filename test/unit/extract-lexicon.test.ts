// Date, copyright and paywall words are data (lexicon/dates.ts, lexicon/notices.ts), compiled by one helper
// (lexicon/compile.ts): every language's entries reach the rules that judge lines and headings.
import { describe, expect, it } from 'vitest';
import { isBoilerplateLine, isDateLine, isSectionHeading } from '../../src/extract/boilerplate-text.js';
import { anyOf, phraseTest, wordsOf } from '../../src/extract/lexicon/compile.js';
import { COPYRIGHT_NOTICES, PAYWALL_READ_ON } from '../../src/extract/lexicon/notices.js';

describe('lexicon compile helper', () => {
  it('joins a table of languages in its order into one alternation', () => {
    expect(wordsOf({ en: ['a', 'b'], de: ['c'] })).toEqual(['a', 'b', 'c']);
    expect(anyOf(['x', 'y'])).toBe('(x|y)');
    expect(phraseTest('^', { en: ['share'], de: ['teilen'] }, '$').test('TEILEN')).toBe(true);
    expect(phraseTest('^', { en: ['share'] }, '$').test('shares')).toBe(false);
  });
});

describe('date and notice words per language', () => {
  it('reads date lines in each language with month names', () => {
    for (const line of [
      'Published on 3 May 2021',
      'Veröffentlicht am 3. März 2021',
      'Mis à jour le 3 avril 2021',
      'Actualizado: 3 mayo 2021',
      '3 maggio 2021',
      '3 maja 2021',
      '3 maart 2021',
    ])
      expect(isDateLine(line), line).toBe(true);
    expect(isDateLine('The council met on 3 May 2021 to vote')).toBe(false);
  });

  it('reads every copyright notice and paywall heading as boilerplate', () => {
    for (const notice of Object.values(COPYRIGHT_NOTICES).flat()) expect(isBoilerplateLine(`Example Ltd. ${notice}.`), notice).toBe(true);
    expect(Object.keys(PAYWALL_READ_ON).length).toBeGreaterThan(3);
    expect(isSectionHeading('Um den Artikel weiterzulesen, melden Sie sich mit Ihrem Konto an')).toBe(true);
    expect(isSectionHeading('Pour lire la suite, créez votre compte')).toBe(true);
    expect(isSectionHeading('To continue reading, walk to the next room')).toBe(false);
  });
});
