// Query parameters that say who clicked or how they arrived, not which page: dropped before URLs are
// compared or fetched. Data, not rules: extend the lists, not the code.

/** Exact names (lower case). */
export const TRACKING_PARAMETERS: ReadonlySet<string> = new Set([
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  'fbclid',
  'msclkid',
  'yclid',
  'twclid',
  'ttclid',
  'li_fat_id',
  'igshid',
  'mc_cid',
  'mc_eid',
  '_ga',
  '_gl',
  '_hsenc',
  '_hsmi',
  'mkt_tok',
  'oly_anon_id',
  'oly_enc_id',
  'vero_id',
  'rb_clickid',
  's_cid',
  'ref_src',
  'ref_url',
]);

/** Prefixes (lower case): utm_source, utm_medium… and Piwik/Matomo's pk_ and mtm_. */
export const TRACKING_PREFIXES: readonly string[] = ['utm_', 'pk_', 'mtm_', 'hsa_'];

/** Session identifiers: one per visitor, so every visit would look like a new set of pages. */
export const SESSION_PARAMETERS: ReadonlySet<string> = new Set([
  'sid',
  'sessionid',
  'session_id',
  'phpsessid',
  'jsessionid',
  'aspsessionid',
  'cfid',
  'cftoken',
  'zenid',
  'oscsid',
]);
