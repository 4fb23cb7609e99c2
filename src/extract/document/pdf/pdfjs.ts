// pdf.js as src uses it, in one module: `npm pack` replaces its compiled form with pdf.js's legacy build
// bundled with the DOMMatrix stand-in, and its worker beside it (scripts/bundle-vendor.mjs), so an install
// carries 3 MB of pdfjs-dist's 41 MB and not its optional @napi-rs/canvas (33 MB, used only to render).
// Development and tests import the real package.
import './dom-matrix.js';

export { getDocument, Util } from 'pdfjs-dist/legacy/build/pdf.mjs';
