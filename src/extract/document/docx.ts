// DOCX: mammoth (BSD-2-Clause) maps Word styles to HTML (headings, lists, tables, links, bold/italic);
// Turndown writes that as Markdown, with tables as GFM tables whether or not Word marked a header row.
import TurndownService from 'turndown';
import { ToolError } from '../../errors.js';
import type { DocumentText } from './document-text.js';
import { gfmTable } from './gfm-table.js';

interface Node {
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<Node>;
}

let converter: TurndownService | undefined;

function markdownConverter(): TurndownService {
  if (converter) return converter;
  const td = new TurndownService({ headingStyle: 'atx', bulletListMarker: '-', codeBlockStyle: 'fenced', emDelimiter: '_', strongDelimiter: '**' });
  td.addRule('gfmTable', {
    filter: 'table',
    replacement: (_content, node) => {
      const rows: string[][] = [];
      const walk = (n: Node) => {
        if (n.nodeName === 'TR') {
          rows.push(
            Array.from(n.childNodes, (c) =>
              c.nodeName === 'TD' || c.nodeName === 'TH' ? (c.textContent ?? '').replace(/\s+/g, ' ').trim() : undefined,
            ).filter((c): c is string => c !== undefined),
          );
          return;
        }
        Array.from(n.childNodes).forEach(walk);
      };
      walk(node as unknown as Node);
      return `\n\n${gfmTable(rows)}\n\n`;
    },
  });
  // "- item" rather than Turndown's "-   item"; ordered lists numbered from their start.
  td.addRule('compactListItem', {
    filter: 'li',
    replacement: (content, node) => {
      const parent = node.parentNode as unknown as { nodeName: string; children: ArrayLike<unknown> } | null;
      const prefix = parent?.nodeName === 'OL' ? `${Array.prototype.indexOf.call(parent.children, node) + 1}. ` : '- ';
      const body = content
        .replace(/^\n+/, '')
        .replace(/\n+$/, '\n')
        .replace(/\n/gm, `\n${' '.repeat(prefix.length)}`);
      return prefix + body.trimEnd() + (node.nextSibling ? '\n' : '');
    },
  });
  // Word's empty anchors (bookmarks, table-of-contents targets) carry no text.
  td.addRule('emptyAnchor', { filter: (n) => n.nodeName === 'A' && (n.textContent ?? '').trim() === '', replacement: () => '' });
  converter = td;
  return td;
}

export async function readDocx(bytes: Uint8Array): Promise<DocumentText> {
  const { default: mammoth } = await import('mammoth');
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) })).value;
  } catch (err) {
    throw new ToolError(`The Word document could not be read: ${(err as Error).message}`, 'input');
  }
  const markdown = markdownConverter()
    .turndown(html)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const title = /^# (.+)$/m.exec(markdown)?.[1] ?? '';
  return { type: 'docx', title, markdown };
}
