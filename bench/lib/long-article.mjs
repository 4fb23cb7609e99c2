// A long article page generated to a target size of HTML: a site header and menu, then one article of plain
// paragraphs (a few links in running text, a section heading every twelve paragraphs, now and then a list
// or a quote), then a footer of links. The same article at several sizes shows how extraction cost grows
// with the page (bench/markdown-scale.bench.mjs, test/unit/extract-linear.test.ts). Deterministic: the
// text comes from a fixed word list and a counter, so every run converts the same page.
const WORDS = (
  'the of and to in a is that for it as was with be by on not he this are or his from at which but have an ' +
  'they you were her she there been one all we their has would when if so no what up out who them some could ' +
  'report council river market winter station harbour committee research village morning evening library ' +
  'engineers measured announced reviewed considered described'
).split(' ');

function sentence(seed, words) {
  const out = [];
  for (let i = 0; i < words; i++) out.push(WORDS[(seed * 31 + i * 17 + ((seed >> 3) ^ i)) % WORDS.length]);
  out[0] = out[0][0].toUpperCase() + out[0].slice(1);
  return `${out.join(' ')}.`;
}

function paragraph(n) {
  const parts = [];
  for (let s = 0; s < 4; s++) parts.push(sentence(n * 7 + s, 14 + ((n + s) % 9)));
  // One link in running text every third paragraph: prose with a few links stays prose.
  if (n % 3 === 0) parts[1] = `${parts[1]} See <a href="https://example.org/notes/${n}">the notes on item ${n}</a> for details.`;
  return `<p>${parts.join(' ')}</p>`;
}

function block(n) {
  if (n > 0 && n % 12 === 0) return `<h2>Section ${n / 12}: ${sentence(n, 4).slice(0, -1)}</h2>\n${paragraph(n)}`;
  if (n % 29 === 7) return `<ul>${[0, 1, 2].map((k) => `<li>${sentence(n + k, 9)}</li>`).join('')}</ul>`;
  if (n % 41 === 13) return `<blockquote><p>${sentence(n, 20)}</p></blockquote>`;
  return paragraph(n);
}

const HEAD = (title) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} | Example Gazette</title></head><body>` +
  '<header class="site-header"><a href="https://example.org/">Example Gazette</a><nav><ul>' +
  ['News', 'Sport', 'Business', 'Culture', 'Opinion'].map((s) => `<li><a href="https://example.org/${s.toLowerCase()}">${s}</a></li>`).join('') +
  '</ul></nav></header><main><article>' +
  `<h1>${title}</h1><p class="byline">By A. Writer, 1 March 2026</p>`;

const TAIL =
  '</article></main><footer class="site-footer"><ul>' +
  ['About', 'Contact', 'Privacy', 'Terms'].map((s) => `<li><a href="https://example.org/${s.toLowerCase()}">${s}</a></li>`).join('') +
  '</ul></footer></body></html>';

/** An article page of about `bytes` bytes of HTML (at least one paragraph). */
export function longArticle(bytes, title = 'A long report on the river') {
  const head = HEAD(title);
  const parts = [head];
  let size = head.length + TAIL.length;
  for (let n = 0; size < bytes || n === 0; n++) {
    const b = block(n);
    parts.push(b);
    size += b.length + 1;
  }
  parts.push(TAIL);
  return parts.join('\n');
}
