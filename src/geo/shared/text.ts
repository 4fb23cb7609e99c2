// One way to compare place names: accents folded, case and punctuation ignored, and the usual
// abbreviations of name prefixes written out ("St. Louis" = "Saint Louis", "Ft Worth" = "Fort Worth").

const LETTER_MAP: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

const PREFIXES = new Map([
  ['st', 'saint'],
  ['ste', 'sainte'],
  ['mt', 'mount'],
  ['ft', 'fort'],
  ['pt', 'port'],
]);

export function foldText(s: string): string {
  // Most names are plain ASCII: skip the Unicode decomposition for them (the gazetteer folds 200,000 names).
  if (!NON_ASCII.test(s)) return s.toLowerCase();
  // Latin, Greek and Cyrillic only: every mark is an accent.
  if (!BEYOND_CYRILLIC.test(s)) {
    return s
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[ßæœøłđðþı]/g, (c) => LETTER_MAP[c] ?? c);
  }
  return (
    s
      .normalize('NFKD')
      // Accents of the alphabets are folded ("é" = "e", "й" = "и", "ά" = "α"); the vowel signs of other scripts
      // are part of the letters and stay (Devanagari, Thai, Arabic).
      .replace(/([\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])\p{M}+/gu, '$1')
      // Arabic script, as search engines fold it (Lucene's Arabic and Persian normalisers): the optional short
      // vowels, the hamza and madda written on a letter and the tatweel go; alef maqsura and the Persian yeh
      // are yeh, the Persian keheh kaf, teh marbuta heh ("أبو ظبي" = "ابو ظبى", "بیروت" = "بيروت").
      .replace(ARABIC_MARKS, '')
      .normalize('NFC')
      .replace(/[ىی]/g, 'ي')
      .replace(/ک/g, 'ك')
      .replace(/[ةۀ]/g, 'ه')
      .toLowerCase()
      .replace(/[ßæœøłđðþı]/g, (c) => LETTER_MAP[c] ?? c)
  );
}

/** Arabic harakat, hamza and madda above or below a letter (after NFKD), superscript alef, tatweel. */
const ARABIC_MARKS = /[\u064b-\u065f\u0670\u0640]/g;

const NON_ASCII = /[^\u0020-\u007e]/;
/** Past the Cyrillic block (and not a combining mark or general punctuation, which Latin text also has). */
const BEYOND_CYRILLIC = /[^\u0020-\u052f\u1e00-\u1fff\u2000-\u206f]/;
const ONE_ASCII_WORD = /^[A-Za-z]+$/;

/** Latin letters that look like Cyrillic ones, as typed by mistake inside a Cyrillic word ("Бългaрия"). */
const CYRILLIC_LOOKALIKES: Record<string, string> = { a: 'а', c: 'с', e: 'е', o: 'о', p: 'р', x: 'х', y: 'у', k: 'к', m: 'м', t: 'т', h: 'н', b: 'в', i: 'і' };
const MIXED_CYRILLIC_WORD = /\p{Script=Cyrillic}[\p{L}]*[a-z]|[a-z][\p{L}]*\p{Script=Cyrillic}/u;

/** Key for comparing place names. */
export function normaliseName(s: string): string {
  // Most names are one plain word ("Springfield"): nothing to fold, split or expand.
  if (ONE_ASCII_WORD.test(s)) return s.toLowerCase();
  let folded = foldText(s);
  if (MIXED_CYRILLIC_WORD.test(folded)) {
    folded = folded.replace(/\S+/g, (w) => (/\p{Script=Cyrillic}/u.test(w) ? w.replace(/[acepxykmthbi]/g, (c) => CYRILLIC_LOOKALIKES[c]!) : w));
  }
  folded = folded.replace(/['’`]/g, '').replace(/&/g, ' and ');
  const words = (NON_ASCII.test(folded) ? folded.replace(/[^\p{L}\p{N}]+/gu, ' ') : folded.replace(/[^a-z0-9]+/g, ' ')).trim().split(' ');
  const prefix = words.length > 1 ? PREFIXES.get(words[0]!) : undefined;
  if (prefix) words[0] = prefix;
  return joinInitials(words).join(' ');
}

/** Initials written with dots or spaces are one word: "D.C." and "DC", "U.S." and "US" compare equal. */
function joinInitials(words: string[]): string[] {
  if (!words.some((w, i) => w.length === 1 && words[i + 1]?.length === 1)) return words;
  const out: string[] = [];
  let run = '';
  for (const w of words) {
    if (w.length === 1 && /\p{L}/u.test(w)) {
      run += w;
      continue;
    }
    if (run) out.push(run);
    run = '';
    out.push(w);
  }
  if (run) out.push(run);
  return out;
}

const GERMAN_UMLAUTS: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue' };

/** The name with its umlauts written out as on a keyboard without them ("Österreich" → "Oesterreich",
 * "München" → "Muenchen"), or null when it has none. */
export function umlautsWrittenOut(s: string): string | null {
  return /[äöüÄÖÜ]/.test(s) ? s.replace(/[äöüÄÖÜ]/g, (c) => GERMAN_UMLAUTS[c]!) : null;
}
