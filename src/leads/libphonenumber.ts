// What src uses from libphonenumber-js, in one module: `npm pack` replaces its compiled form with one bundled
// file (scripts/bundle-vendor.mjs) that carries only the metadata this build reads, not the package's 13 MB
// of builds and metadata sets. Development and tests import the real package.
export { parsePhoneNumberFromString } from 'libphonenumber-js';
