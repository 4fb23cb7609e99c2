// The documents bench's corpus, rebuilt at bench time from public text: articles of trafilatura's evaluation
// corpus (adbar/trafilatura, Apache-2.0; located by lib/trafilatura-corpus.mjs, never committed) reduced to
// clean HTML (headings, paragraphs, lists), then printed by Chromium in several layouts, typeset by LaTeX
// (Debian's texlive, when installed) and converted to DOCX by pandoc (when installed). The clean HTML's text
// is the truth for every file made from it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { htmlToMarkdown } from '../../dist/src/browser/markdown.js';

/** Blocks of an article: headings (level 1-3), paragraphs and list items, as plain text. */
export function articleBlocks(html) {
  const { markdown } = htmlToMarkdown(html, '', 'main');
  const blocks = [];
  let inFence = false;
  for (const raw of markdown.split(/\n{2,}/)) {
    const block = raw.trim();
    if (block.startsWith('```')) inFence = !inFence;
    if (inFence || block.startsWith('```') || block.startsWith('|') || block.startsWith('>') || block.startsWith('![')) continue;
    const plain = (s) =>
      s
        .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
        .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/[*_`\\]/g, '')
        .replace(/\s+/g, ' ')
        .trim();
    const heading = /^(#{1,6})\s+(.*)$/s.exec(block);
    if (heading) {
      const text = plain(heading[2]);
      if (text) blocks.push({ kind: 'h', level: Math.min(3, heading[1].length), text });
      continue;
    }
    if (/^([-*]|\d+\.)\s/.test(block)) {
      for (const item of block.split(/\n(?=[-*]\s|\d+\.\s)/)) {
        const text = plain(item.replace(/^([-*]|\d+\.)\s+/, ''));
        if (text) blocks.push({ kind: 'li', text });
      }
      continue;
    }
    const text = plain(block);
    if (text.split(' ').length >= 3) blocks.push({ kind: 'p', text });
  }
  return blocks;
}

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Blocks → HTML body (lists grouped). */
export function blocksHtml(blocks) {
  let out = '';
  let inList = false;
  for (const b of blocks) {
    if (b.kind === 'li' && !inList) out += '<ul>';
    if (b.kind !== 'li' && inList) out += '</ul>';
    inList = b.kind === 'li';
    out += b.kind === 'h' ? `<h${b.level}>${esc(b.text)}</h${b.level}>` : b.kind === 'li' ? `<li>${esc(b.text)}</li>` : `<p>${esc(b.text)}</p>`;
  }
  return out + (inList ? '</ul>' : '');
}

const STYLE = `@page{size:A4;margin:16mm 14mm}body{font:10.5pt/1.35 "DejaVu Serif",serif;margin:0}
h1{font-size:20pt;margin:0 0 8pt}h2{font-size:15pt;margin:10pt 0 5pt}h3{font-size:12.5pt;margin:8pt 0 4pt}p,li{margin:0 0 6pt;text-align:justify}
.c2{column-count:2;column-gap:9mm}.c3{column-count:3;column-gap:6mm}
.grid{display:grid;grid-template-columns:1fr 1fr;column-gap:9mm}.left{grid-column:1;grid-row:1}.right{grid-column:2;grid-row:1}
.side{display:grid;grid-template-columns:2fr 1fr;column-gap:9mm}.main{grid-column:1;grid-row:1}.aside{grid-column:2;grid-row:1;font-size:9.5pt}`;

/** Splits blocks into consecutive groups of about `words` words (a block is never split). */
function chunks(blocks, words) {
  const out = [[]];
  let n = 0;
  for (const b of blocks) {
    if (n >= words && out.at(-1).length > 0) {
      out.push([]);
      n = 0;
    }
    out.at(-1).push(b);
    n += b.text.split(' ').length;
  }
  return out;
}

/**
 * The HTML for a layout and the truth's block order. 'grid' and 'sidebar' put the right-hand part first in
 * the source (so in the PDF's content stream), while the reading order is left then right; each page holds
 * one such pair, short enough to fit, so the truth never has to cross a page boundary mid-column.
 */
export function layoutHtml(layout, title, blocks) {
  const head = `<html><head><meta charset="utf-8"><title>${esc(title)}</title><style>${STYLE}</style></head><body>`;
  const titleHtml = `<h1>${esc(title)}</h1>`;
  if (layout === 'one') return { html: `${head}${titleHtml}${blocksHtml(blocks)}</body></html>`, truth: blocks };
  if (layout === 'two' || layout === 'three')
    return { html: `${head}${titleHtml}<div class="${layout === 'two' ? 'c2' : 'c3'}">${blocksHtml(blocks)}</div></body></html>`, truth: blocks };
  const [outer, a, b, leftWords, rightWords] = layout === 'grid' ? ['grid', 'left', 'right', 170, 170] : ['side', 'main', 'aside', 230, 70];
  let html = `${head}${titleHtml}`;
  const truth = [];
  let pages = 0;
  // Long paragraphs are cut at sentence ends (no word changes) so that every page's pair fits on the page.
  let rest = blocks.flatMap((block) => {
    if (block.kind !== 'p' || block.text.split(' ').length <= 70) return [block];
    const pieces = [''];
    for (const sentence of block.text.split(/(?<=[.!?])\s+/)) {
      if (pieces.at(-1).split(' ').length > 50) pieces.push('');
      pieces[pieces.length - 1] = `${pieces.at(-1)} ${sentence}`.trim();
    }
    return pieces.map((text) => ({ kind: 'p', text }));
  });
  while (rest.length > 0) {
    const [first] = chunks(rest, leftWords);
    rest = rest.slice(first.length);
    const [second = []] = rest.length > 0 ? chunks(rest, rightWords) : [];
    rest = rest.slice(second.length);
    html += `<div class="${outer}" style="break-after:page"><div class="${b}">${blocksHtml(second)}</div><div class="${a}">${blocksHtml(first)}</div></div>`;
    truth.push(...first, ...second);
    pages++;
  }
  // pages: what the file must have for the truth to hold (a pair that overflowed its page breaks it).
  return { html: `${html}</body></html>`, truth, pages };
}

/** The truth as text, one block per line, headings included (the title first). */
export function truthText(title, blocks) {
  return [title, ...blocks.map((b) => b.text)].join('\n');
}

const latexEscape = (s) =>
  s
    .replace(/\\/g, '\\textbackslash{}')
    .replace(/([#$%&_{}])/g, '\\$1')
    .replace(/~/g, '\\textasciitilde{}')
    .replace(/\^/g, '\\textasciicircum{}')
    .replace(/[^\x20-\x7e\u00a0-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d]/g, '');

/** A two-column LaTeX article with running heads, footnotes on every fourth paragraph and hyphenation. */
export function latexSource(title, blocks) {
  // Each note quotes the start of its paragraph, so no two are alike (a repeated line would be a running footer).
  const footnote = (i, text) => `Note ${i} on: ${text.split(' ').slice(0, 8).join(' ')}`;
  let body = '';
  let inList = false;
  let paragraphs = 0;
  const truth = [];
  for (const b of blocks) {
    if (b.kind === 'li' && !inList) body += '\\begin{itemize}\n';
    if (b.kind !== 'li' && inList) body += '\\end{itemize}\n';
    inList = b.kind === 'li';
    if (b.kind === 'h') {
      body += `${b.level <= 2 ? '\\section*' : '\\subsection*'}{${latexEscape(b.text)}}\n`;
      truth.push(b);
    } else if (b.kind === 'li') {
      body += `\\item ${latexEscape(b.text)}\n`;
      truth.push(b);
    } else {
      paragraphs++;
      const note = paragraphs % 4 === 0 ? `\\footnote{${latexEscape(footnote(paragraphs, b.text))}}` : '';
      body += `${latexEscape(b.text)}${note}\n\n`;
      truth.push(b);
      if (note) truth.push({ kind: 'fn', text: footnote(paragraphs, b.text) });
    }
  }
  if (inList) body += '\\end{itemize}\n';
  const tex = `\\documentclass[10pt,twocolumn]{article}
\\usepackage[T1]{fontenc}\\usepackage[utf8]{inputenc}\\usepackage{lmodern}
\\usepackage[a4paper,margin=18mm]{geometry}
\\pagestyle{myheadings}\\markboth{${latexEscape(title)}}{${latexEscape(title)}}
\\title{${latexEscape(title)}}\\author{Documents Bench}\\date{}
\\begin{document}\\maketitle
${body}
\\end{document}
`;
  return { tex, truth };
}

/** Whether a command-line tool answers `--version` (pdflatex, pandoc). */
export function haveCommand(command) {
  try {
    execFileSync(command, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function runPdflatex(dir, tex) {
  fs.writeFileSync(path.join(dir, 'doc.tex'), tex);
  execFileSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', 'doc.tex'], { cwd: dir, stdio: 'ignore', timeout: 60_000 });
  return fs.readFileSync(path.join(dir, 'doc.pdf'));
}

export function runPandocDocx(dir, html) {
  fs.writeFileSync(path.join(dir, 'doc.html'), html);
  execFileSync('pandoc', ['-f', 'html', '-t', 'docx', '-o', 'doc.docx', 'doc.html'], { cwd: dir, stdio: 'ignore', timeout: 60_000 });
  return fs.readFileSync(path.join(dir, 'doc.docx'));
}
