// textLengths (src/extract/dom.ts) measures every element of a tree in one walk; each measure must be the
// textLength of that element (collapseSpace's length of its text), whatever white space its text nodes start,
// end or consist of.
import { parseHTML } from 'linkedom';
import { expect, it } from 'vitest';
import { collapseSpace, textLength, textLengths, type El } from '../../src/extract/dom.js';

const PIECES = ['', ' ', '  ', '\n', '\u00a0', 'a', 'word', ' lead', 'trail ', ' both ', 'two  words', '\t\n ', 'a\u00a0b', 'one two', ' x\ny '];

it('measures every element as textLength does', () => {
  let seed = 7;
  const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  for (let round = 0; round < 50; round++) {
    const { document } = parseHTML('<html><body><div id="root"></div></body></html>');
    const root = document.getElementById('root') as unknown as El;
    const open: El[] = [root];
    for (let i = 0; i < 40; i++) {
      const parent = open[next(open.length)]!;
      if (next(3) === 0) {
        const el = document.createElement(['p', 'span', 'div', 'em'][next(4)]!) as unknown as El;
        parent.appendChild(el);
        open.push(el);
      } else parent.appendChild(document.createTextNode(PIECES[next(PIECES.length)]!));
      if (next(9) === 0) parent.appendChild(document.createComment(' not text '));
    }
    const lengths = textLengths(root);
    for (const el of open) {
      // What textLength stands for: the length of the text as collapseSpace leaves it.
      expect(textLength(el)).toBe(collapseSpace(el.textContent ?? '').length);
      expect(lengths.get(el)).toBe(textLength(el));
    }
  }
});
