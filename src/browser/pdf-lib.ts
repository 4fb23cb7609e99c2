// What src uses from pdf-lib, in one module: `npm pack` replaces its compiled form with one bundled file
// (scripts/bundle-vendor.mjs), so an install carries ~1 MB of pdf-lib's 24 MB. Development and tests
// import the real package.
export { PDFDocument } from 'pdf-lib';
