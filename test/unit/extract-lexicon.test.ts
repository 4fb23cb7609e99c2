// Date, copyright and paywall words are data (lexicon/dates.ts, lexicon/notices.ts), compiled by one helper
// (lexicon/compile.ts): every language's entries reach the rules that judge lines and headings, and no rule
// writes words inline.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { isBoilerplateLine, isDateLine, isSectionHeading } from '../../src/extract/boilerplate-text.js';
import { anyOf, phraseTest, wordsOf } from '../../src/extract/lexicon/compile.js';
import { LINE_PHRASES } from '../../src/extract/lexicon/lines.js';
import { COPYRIGHT_NOTICES, PAYWALL_READ_ON } from '../../src/extract/lexicon/notices.js';
import { isPromoText } from '../../src/extract/promos.js';

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

describe('the rules hold no words of their own', () => {
  // Every regular expression the text and name rules write inline (a literal, or a string handed to new
  // RegExp) is read; a run of three letters in one is a word, and words live in lexicon/. What stays is
  // syntax: tag names, URL schemes and shapes, the class prefixes of code highlighters; a character class is
  // letters, not a word.
  const SYNTAX = new Set(['html', 'body', 'mailto', 'tel', 'www', 'language', 'lang', 'highlight', 'source', 'text', 'brush']);
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../src/extract');
  const words = (pattern: string): string[] =>
    (pattern.replace(/\\u[\da-fA-F]{4}|\\p\{[^}]*\}|\\[a-zA-Z]|\[(\\.|[^\]])*\]/g, ' ').match(/[a-zA-Z\u00c0-\u024f]{3,}/g) ?? []).filter(
      (w) => !SYNTAX.has(w.toLowerCase()),
    );

  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))) {
    it(`${file}: no word in an inline regular expression`, () => {
      const source = ts.createSourceFile(file, fs.readFileSync(path.join(dir, file), 'utf8'), ts.ScriptTarget.Latest, true);
      const found: string[] = [];
      const visit = (node: ts.Node): void => {
        if (ts.isRegularExpressionLiteral(node)) found.push(...words(node.text.slice(1, node.text.lastIndexOf('/'))));
        if (ts.isNewExpression(node) && node.expression.getText() === 'RegExp') {
          const first = node.arguments?.[0];
          if (first && ts.isTemplateExpression(first)) {
            found.push(...words(first.head.text));
            for (const span of first.templateSpans) found.push(...words(span.literal.text));
          } else if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) found.push(...words(first.text));
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
      expect(found).toEqual([]);
    });
  }
});

describe('phrases of lines and pitches per language', () => {
  it('reads every plain phrase of lexicon/lines.ts as a boilerplate line', () => {
    for (const table of Object.values(LINE_PHRASES))
      for (const phrase of wordsOf(table).filter((p) => /^[\p{L} ]+$/u.test(p))) expect(isBoilerplateLine(`Bitte: ${phrase}.`), phrase).toBe(true);
  });

  it('reads the pitches of lexicon/lines.ts in each language', () => {
    expect(isPromoText('Síguenos en Twitter para más noticias')).toBe(true);
    expect(isPromoText('Suivez-nous sur Facebook')).toBe(true);
    expect(isPromoText('Folgen Sie uns auf Instagram')).toBe(true);
    expect(isPromoText('Follow The Daily on Twitter')).toBe(true);
    expect(isPromoText('follow these steps shared on Twitter')).toBe(false);
  });
});
