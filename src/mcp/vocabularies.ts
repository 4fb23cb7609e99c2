// The closed vocabularies our tool arguments accept, for completion/complete. Each list is imported from
// where the tool's schema takes it (or mirrors a z.enum literal), so a completion never offers a value the
// tool would refuse.
import { CATEGORY_SLUGS, CATEGORY_SYNONYMS } from '../leads/categories.js';
import { RECORD_TYPES } from '../dns/lookup-records.js';

/** homeservices service: the category slugs first (what a caller should prefer), then everyday synonyms. */
export const SERVICE_WORDS: readonly string[] = [...new Set([...CATEGORY_SLUGS, ...CATEGORY_SLUGS.flatMap((s) => CATEGORY_SYNONYMS[s])])];
export const DNS_RECORD_TYPES: readonly string[] = [...RECORD_TYPES, 'ALL'];
// Same literals as the z.enum in tools/browser.screenshot.ts, tools/browser.pdf.ts and src/browser/input-schemas.ts.
export const SCREENSHOT_FORMATS: readonly string[] = ['png', 'jpeg', 'webp'];
export const PDF_PAPER_SIZES: readonly string[] = ['letter', 'a4', 'legal', 'a3', 'a5'];
export const WAIT_MODES: readonly string[] = ['load', 'dom', 'idle'];

/** MCP caps a completion at 100 values. */
export const MAX_COMPLETIONS = 100;

export type Completion = { values: string[]; total: number; hasMore: boolean };

/** Values starting with what was typed (case-insensitive), in vocabulary order. */
export function completeFrom(vocabulary: readonly string[], typed: string): Completion {
  const prefix = typed.trim().toLowerCase();
  const matches = vocabulary.filter((v) => v.toLowerCase().startsWith(prefix));
  return { values: matches.slice(0, MAX_COMPLETIONS), total: matches.length, hasMore: matches.length > MAX_COMPLETIONS };
}
