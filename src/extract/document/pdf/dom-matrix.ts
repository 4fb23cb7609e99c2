// pdf.js builds a DOMMatrix as it loads (for rendering, which we never do) and takes Node's from
// @napi-rs/canvas, an optional dependency of 33 MB that an install of ours leaves out; without one pdf.js
// does not load. @thednp/dommatrix stands in, set before pdf.js is evaluated: pdfjs.ts imports this first.
import CSSMatrix from '@thednp/dommatrix';

const scope = globalThis as { DOMMatrix?: unknown };
scope.DOMMatrix ??= CSSMatrix;
