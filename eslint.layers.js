// Which source folders may import which: the layer map of docs/architecture.md, checked by lint.
// Each folder lists the folders it may use besides the base files (config, errors, ids, logger,
// version), which every layer may import. A folder not listed may import nothing but the base files.
// Lower layers first: a folder never imports one that lists it, so the graph has no cycles.

/** Pseudo-folders for top-level modules that are not base files. */
const FILES = { runtime: 'runtime\\.js$' };

const DOMAIN = ['dns', 'email', 'geo', 'extract', 'browser', 'crawl', 'leads'];
const PLATFORM = ['auth', 'registry', 'net', 'store', 'db', 'artifacts', 'engine', 'billing', 'webhooks'];

export const LAYERS = {
  // Platform: no transport, no front door.
  auth: [],
  registry: [],
  net: ['registry'],
  // The task store's port (interfaces and row types), and the SQL that implements it for both dialects.
  store: [],
  db: ['store'],
  artifacts: ['auth', 'registry', 'store', 'db'],
  engine: ['registry', 'store', 'db'],
  billing: ['auth', 'registry', 'store', 'db', 'engine'],
  // Webhooks: the outbox dispatcher, signatures and options, on the store and the network guard.
  webhooks: ['net', 'registry', 'store', 'db', 'engine'],
  // Extraction: HTML and documents → Markdown and metadata (no browser, no network).
  extract: [],
  // Domains: what each tool family knows about the world.
  dns: [],
  email: ['net', 'registry'],
  geo: ['net', 'registry'],
  browser: ['net', 'registry', 'artifacts', 'extract'],
  // Maps and crawls: robots.txt, sitemaps, URL normalisation; pages rendered through the browser domain.
  crawl: ['net', 'registry', 'browser', 'extract'],
  // The lead service is a service of its own on the platform's parts.
  leads: ['net', 'registry', 'store', 'db', 'auth', 'billing', 'engine', 'web', 'webhooks', 'geo'],
  // HTTP plumbing the front doors share (credentials, error mapping, rate limits, callers).
  web: ['auth', 'billing', 'engine', 'registry', 'store', 'db', 'artifacts', 'runtime'],
  // Front doors: each on the platform and web/, never on another front door.
  http: [...PLATFORM, 'web', 'runtime'],
  mcp: [...PLATFORM, ...DOMAIN, 'web', 'runtime'],
  a2a: [...PLATFORM, 'web', 'runtime'],
  console: [...PLATFORM, 'web', 'runtime', 'http'],
  // Assembly of the front doors, and the command line on top of everything.
  server: [...PLATFORM, ...DOMAIN, 'web', 'runtime', 'http', 'mcp', 'a2a', 'console'],
  cli: [...PLATFORM, ...DOMAIN, 'web', 'runtime', 'http', 'mcp', 'a2a', 'console', 'server'],
};

/** Tool files (tools/*.ts) use the domains and the platform below the engine. */
export const TOOLS_MAY_USE = ['registry', 'net', 'artifacts', 'extract', ...DOMAIN];

const ALL = [...Object.keys(LAYERS), ...Object.keys(FILES), 'tools'];

/** Relative specifiers only (`../engine/x.js`, `../../src/engine/x.js`), so packages like `…/server/index.js` never match. */
function patternFor(name) {
  return `^(\\.{1,2}/)+(src/)?${FILES[name] ?? `${name}/`}`;
}

/** no-restricted-imports patterns forbidding every folder `self` may not use. */
export function forbiddenPatterns(self, allowed) {
  const forbidden = ALL.filter((name) => name !== self && !allowed.includes(name));
  return forbidden.map((name) => ({
    regex: patternFor(name),
    message: `${self === 'tools' ? 'tools/' : `src/${self}/`} may not import ${name} (layer map: docs/architecture.md).`,
    allowTypeImports: false,
  }));
}
