// Some sources lost their accented letters on the way: the zipcodes package's Canadian table writes
// "Abitibi-T�miscamingue-Est", "Rivi�re-du-Loup", "Saint-J�r�me", with U+FFFD where a letter was. Shown as
// it is, an answer would carry the replacement character to the caller. Each damaged word is restored from a
// vocabulary of accented words (a word written alike but for its accented letters: "Rivi�re" from "Rivière";
// or one that begins it: "Ch�teauguay" from "Château"), else by French spelling's commonest cases: "è"
// before a last consonant and "e" ("Pocati�re", "Lanaudi�re"), "ç" between a vowel and "a", "o" or "u"
// ("A�ores"), else "é", "É" at the start of a word.

const LOST = '\uFFFD';

/** The shortest known word taken as the beginning of a longer damaged one. */
const MIN_BEGINNING = 5;

/** A word with each letter outside ASCII written as the replacement character: how a damaged word looks. */
function skeleton(word: string): string {
  return word.replace(/[^\p{ASCII}]/gu, LOST);
}

export class AccentRestorer {
  /** Accented words by their skeleton, lower case, with how often each was seen (the commonest wins). */
  private readonly bySkeleton = new Map<string, Map<string, number>>();

  constructor(names: Iterable<string>) {
    for (const name of names) {
      for (const word of name
        .normalize('NFC')
        .toLowerCase()
        .split(/[^\p{L}]+/u)) {
        if (word.length < 3 || /^\p{ASCII}*$/u.test(word)) continue;
        const key = skeleton(word);
        let seen = this.bySkeleton.get(key);
        if (!seen) this.bySkeleton.set(key, (seen = new Map()));
        seen.set(word, (seen.get(word) ?? 0) + 1);
      }
    }
  }

  /** `name` with every lost letter put back, and a lost character that stood alone dropped ("Bhimasar �"). */
  restore(name: string): string {
    if (!name.includes(LOST)) return name;
    return name
      .replace(/[\p{L}\uFFFD]+/gu, (word) => (/^\uFFFD+$/u.test(word) ? '' : word.includes(LOST) ? this.restoreWord(word) : word))
      .replace(/\s{2,}/g, ' ')
      .trim();
  }

  private restoreWord(word: string): string {
    const lower = word.toLowerCase();
    const found = this.commonest(lower) ?? this.plural(lower) ?? this.beginning(lower);
    // (A vocabulary word of another length, a letter written decomposed, cannot stand in letter for letter.)
    const restored = found?.length === word.length ? found : bySpelling(lower);
    // Keep the written case: each letter as written, a restored one upper case where the word begins with it.
    return [...restored].map((ch, i) => (word[i] === LOST ? (i === 0 ? ch.toUpperCase() : ch) : word[i]!)).join('');
  }

  private commonest(lower: string): string | undefined {
    // (Keyed by skeleton, so that letters the word kept do not stop it being found.)
    const seen = this.bySkeleton.get(skeleton(lower));
    return seen ? [...seen].sort((a, b) => b[1] - a[1])[0]![0] : undefined;
  }

  /** A known word and a plural "s" ("îles" for "�les"). */
  private plural(lower: string): string | undefined {
    const one = lower.endsWith('s') ? this.commonest(lower.slice(0, -1)) : undefined;
    return one && `${one}s`;
  }

  /** A known word that begins `lower` and holds all its lost letters ("château" for "ch�teauguay"), with the rest. */
  private beginning(lower: string): string | undefined {
    const last = lower.lastIndexOf(LOST);
    // (A short word begins too many others: "adé", a commune, is no beginning of "adèle".)
    for (let end = lower.length - 1; end > Math.max(last, MIN_BEGINNING - 1); end--) {
      const head = this.commonest(lower.slice(0, end));
      if (head) return head + lower.slice(end);
    }
    return undefined;
  }
}

/** French spelling's commonest cases, for a word no vocabulary holds. */
function bySpelling(lower: string): string {
  return lower
    .replace(/\uFFFD(?=(?:qu|[bcdfglmnprstvz]{1,2})es?$)/u, 'è')
    .replace(/(?<=[aeiou])\uFFFD(?=[aou])/gu, 'ç')
    .replace(/^\uFFFD/u, 'é')
    .replace(/\uFFFD/gu, 'é');
}
