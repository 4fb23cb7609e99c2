// Plain text and JSON: text as it is (decoded as UTF-8, or Latin-1 when it is not valid UTF-8); JSON
// pretty-printed in a fenced block.
import type { DocumentText } from './document-text.js';

export function decodeText(bytes: Uint8Array): string {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf).replace(/^\uFEFF/, '');
  } catch {
    return buf.toString('latin1');
  }
}

export function readText(bytes: Uint8Array): DocumentText {
  const text = decodeText(bytes).replace(/\r\n?/g, '\n');
  return { type: 'text', title: '', markdown: text.trim() };
}

export function readJson(bytes: Uint8Array): DocumentText {
  const pretty = JSON.stringify(JSON.parse(decodeText(bytes)), null, 2);
  const fence = '`'.repeat(Math.max(3, ...Array.from(pretty.matchAll(/`{3,}/g), (m) => m[0].length + 1)));
  return { type: 'json', title: '', markdown: `${fence}json\n${pretty}\n${fence}` };
}
