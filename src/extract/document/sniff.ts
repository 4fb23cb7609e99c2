// What a response really is, from its first bytes: the Content-Type header is only a hint (servers label
// PDFs application/octet-stream, CSV text/plain, feeds text/html). The header decides only between
// kinds the bytes cannot tell apart (CSV and plain text).

export type SniffedKind = 'pdf' | 'docx' | 'xlsx' | 'json' | 'xml' | 'csv' | 'text' | 'html';

export type Sniffed = { kind: SniffedKind } | { kind: 'unsupported'; what: string };

const MAGIC: [number[], string][] = [
  [[0x89, 0x50, 0x4e, 0x47], 'a PNG image'],
  [[0xff, 0xd8, 0xff], 'a JPEG image'],
  [[0x47, 0x49, 0x46, 0x38], 'a GIF image'],
  [[0xd0, 0xcf, 0x11, 0xe0], 'a legacy Office file (.doc, .xls or .ppt; save it as .docx or .xlsx)'],
  [[0x1f, 0x8b], 'a gzip archive'],
  [[0x52, 0x61, 0x72, 0x21], 'a RAR archive'],
  [[0x37, 0x7a, 0xbc, 0xaf], 'a 7z archive'],
];

function startsWith(bytes: Uint8Array, magic: readonly number[], at = 0): boolean {
  return magic.every((b, i) => bytes[at + i] === b);
}

function containsAscii(bytes: Uint8Array, needle: string, limit: number): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, limit)).includes(needle, 0, 'latin1');
}

export function sniffDocument(bytes: Uint8Array, contentType: string | undefined, url: string): Sniffed {
  // PDF readers accept the signature anywhere in the first kilobyte.
  if (containsAscii(bytes, '%PDF-', 1024)) return { kind: 'pdf' };
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    // An Office Open XML package names its parts in the zip's (uncompressed) file headers.
    if (containsAscii(bytes, 'word/', bytes.byteLength)) return { kind: 'docx' };
    if (containsAscii(bytes, 'xl/', bytes.byteLength)) return { kind: 'xlsx' };
    if (containsAscii(bytes, 'ppt/', bytes.byteLength)) return { kind: 'unsupported', what: 'a PowerPoint file' };
    return { kind: 'unsupported', what: 'a ZIP archive' };
  }
  for (const [magic, what] of MAGIC) if (startsWith(bytes, magic)) return { kind: 'unsupported', what };
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46])) return { kind: 'unsupported', what: 'a media file' };
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 8192));
  if (head.includes(0)) return { kind: 'unsupported', what: 'a binary file' };
  const text = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<!doctype html|^<html[\s>]/i.test(text)) return { kind: 'html' };
  if (text.startsWith('<'))
    return /^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<(head|body|div|p|meta|title)[\s>]/i.test(text) ? { kind: 'html' } : { kind: 'xml' };
  if (/^[{[]/.test(text) && isJson(bytes)) return { kind: 'json' };
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const path = safePath(url);
  if (type === 'text/csv' || type === 'text/tab-separated-values' || /\.(csv|tsv)$/i.test(path)) return { kind: 'csv' };
  return { kind: 'text' };
}

function isJson(bytes: Uint8Array): boolean {
  try {
    JSON.parse(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
        .toString('utf8')
        .replace(/^\uFEFF/, ''),
    );
    return true;
  } catch {
    return false;
  }
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}
