// How site.page's plain fetch reads a body: from its bytes first, the Content-Type only between kinds the
// bytes cannot tell apart (an HTML fragment and plain text).
import { describe, expect, it } from 'vitest';
import { pageBodyKind } from '../../src/crawl/page-document.js';

const bytes = (s: string | number[]) => (typeof s === 'string' ? Buffer.from(s) : Buffer.from(s));
const U = 'http://127.0.0.1/x';

describe('pageBodyKind', () => {
  it('reads a PDF, DOCX or XLSX as a document whatever the header says', () => {
    expect(pageBodyKind(bytes('%PDF-1.7\n...'), 'application/octet-stream', U)).toBe('document');
    expect(pageBodyKind(bytes('%PDF-1.7\n...'), '', U)).toBe('document');
    const zip = (part: string) => Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from(`....${part}document.xml`)]);
    // The Office types contain "xml": the header alone would have sent them to the HTML parser.
    expect(pageBodyKind(zip('word/'), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', U)).toBe('document');
    expect(pageBodyKind(zip('xl/'), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', U)).toBe('document');
  });

  it('reads HTML, and text under an HTML or XML type or none, as a page, as before', () => {
    expect(pageBodyKind(bytes('<!doctype html><p>hi'), 'text/plain', U)).toBe('html');
    expect(pageBodyKind(bytes('<p>a fragment</p>'), 'text/html', U)).toBe('html');
    expect(pageBodyKind(bytes('just words'), '', U)).toBe('html');
    expect(pageBodyKind(bytes('<?xml version="1.0"?><rss></rss>'), 'application/rss+xml', U)).toBe('html');
  });

  it('reads text, CSV and JSON under their own types as documents', () => {
    expect(pageBodyKind(bytes('a,b\n1,2\n'), 'text/csv', U)).toBe('document');
    expect(pageBodyKind(bytes('{"a":1}'), 'application/json', U)).toBe('document');
    expect(pageBodyKind(bytes('notes'), 'text/plain', U)).toBe('document');
  });

  it('leaves images, archives and empty bodies unread', () => {
    expect(pageBodyKind(bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]), 'image/png', U)).toBe('none');
    expect(pageBodyKind(bytes([0x50, 0x4b, 0x03, 0x04, 0x41]), 'application/zip', U)).toBe('none');
    expect(pageBodyKind(bytes(''), 'text/html', U)).toBe('none');
  });
});
