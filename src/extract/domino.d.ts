// @mixmark-io/domino (Turndown's HTML parser, the HTML standard's algorithm) ships no types.
declare module '@mixmark-io/domino' {
  /** A document parsed from `html` as a browser would (no doctype: quirks mode). */
  export function createDocument(html?: string, force?: boolean): Document;
}
