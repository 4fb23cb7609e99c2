// Verdicts that depend on a text alone, remembered by the text. The page and Readability's pick of it are
// pruned by the same rules, and a rule may pass over a block twice, so every paragraph of an article met
// the same few dozen regular expressions up to four times; on a long article that was a tenth of the
// conversion. Only texts short enough to be judged are kept (longer ones are turned away by their length,
// which costs nothing), and the table is emptied when it fills, so a long-lived worker's memory stays bounded.

/** Up to this many texts are remembered per verdict. */
const CAPACITY = 20_000;

/** `judge`, remembering its answer for texts of at most `maxChars` characters. `judge` must be pure. */
export function rememberedByText(judge: (s: string) => boolean, maxChars: number): (s: string) => boolean {
  const seen = new Map<string, boolean>();
  return (s) => {
    if (s.length > maxChars) return judge(s);
    let verdict = seen.get(s);
    if (verdict === undefined) {
      if (seen.size >= CAPACITY) seen.clear();
      verdict = judge(s);
      seen.set(s, verdict);
    }
    return verdict;
  };
}
