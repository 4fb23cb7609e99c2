// `agent-utility leads import <file.csv|file.json> [--dry-run] [--replace]`: validates every row, reports
// each rejected one with its row number and reason, and upserts the valid ones on external_id in one
// transaction. Importing real professionals removes the demo dataset.
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Config } from '../config.js';
import { silentLogger, type Logger } from '../logger.js';
import { CATEGORY_SLUGS, findCategory, type Category } from './categories.js';
import { parseCsv } from './csv.js';
import { ZIP_PATTERN, zipCentroid } from './geo.js';
import { proIdFor } from './ids.js';
import { openLeadStore } from './open-store.js';
import { toE164 } from './phone.js';
import type { LeadStore } from './store.js';
import type { ProInput } from './types.js';

export const IMPORT_COLUMNS = [
  'external_id',
  'name',
  'services',
  'zip',
  'phone',
  'email',
  'webhook_url',
  'webhook_secret',
  'address',
  'lat',
  'lng',
  'rating',
  'review_count',
  'website',
  'description',
] as const;

export interface RejectedRow {
  /** CSV: the spreadsheet row (the header is row 1). JSON: the 1-based position in the array. */
  row: number;
  externalId: string | null;
  reason: string;
}

export interface ImportSummary {
  file: string;
  format: 'csv' | 'json';
  dryRun: boolean;
  replace: boolean;
  rows: number;
  valid: number;
  rejected: RejectedRow[];
  inserted: number;
  updated: number;
  removed: number;
  demoRemoved: number;
  /** True when nothing was written because no row was valid. */
  nothingToDo: boolean;
  /** 0: every row imported; 1: some rows rejected (the valid ones were imported); 2: nothing imported. */
  exitCode: number;
}

export interface ImportOptions {
  dryRun?: boolean;
  replace?: boolean;
  config: Config;
  log?: Logger;
  /** An open store (tests, or a running service); otherwise DATA_DIR's store is opened and closed. */
  store?: LeadStore;
  now?: number;
}

export class ImportFileError extends Error {}

type RawRow = Record<string, unknown>;

const optionalText = (max: number) =>
  z.preprocess(
    (v) => (v === null || v === undefined || (typeof v === 'string' && v.trim() === '') ? undefined : typeof v === 'string' ? v.trim() : v),
    z.string().max(max).optional(),
  );

const blankToUndefined = (v: unknown) =>
  v === null || v === undefined || (typeof v === 'string' && v.trim() === '')
    ? undefined
    : typeof v === 'string'
      ? v.trim()
      : typeof v === 'number'
        ? String(v)
        : v;

// Missing and blank both count as absent; a required field says so by name.
const requiredText = (max: number) => z.preprocess(blankToUndefined, z.string({ error: 'is required' }).max(max));

const optionalNumber = z.preprocess(
  (v) => (v === null || v === undefined || (typeof v === 'string' && v.trim() === '') ? undefined : typeof v === 'string' ? Number(v.trim()) : v),
  z.number({ error: 'must be a number' }).optional(),
);

const httpUrl = (max: number) =>
  optionalText(max).refine((v) => v === undefined || /^https?:\/\/[^\s/]+/i.test(v), { message: 'must be an http:// or https:// URL' });

const rowSchema = z.object({
  external_id: requiredText(200),
  name: requiredText(200),
  services: z.unknown(),
  zip: requiredText(10),
  phone: optionalText(40),
  email: optionalText(254).refine((v) => v === undefined || z.email().safeParse(v).success, { message: 'is not a valid e-mail address' }),
  webhook_url: httpUrl(2000),
  webhook_secret: optionalText(200),
  address: optionalText(300),
  lat: optionalNumber.refine((v) => v === undefined || (v >= -90 && v <= 90), { message: 'must be between -90 and 90' }),
  lng: optionalNumber.refine((v) => v === undefined || (v >= -180 && v <= 180), { message: 'must be between -180 and 180' }),
  rating: optionalNumber.refine((v) => v === undefined || (v >= 0 && v <= 5), { message: 'must be between 0 and 5' }),
  review_count: optionalNumber.refine((v) => v === undefined || (Number.isInteger(v) && v >= 0), { message: 'must be a whole number ≥ 0' }),
  website: httpUrl(500),
  description: optionalText(2000),
});

function parseServices(value: unknown): { services: Category[] } | { error: string } {
  const parts = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(/[;|,]/) : [];
  const names = parts.map((p) => p.trim()).filter(Boolean);
  if (names.length === 0) return { error: `services: is required (one or more of ${CATEGORY_SLUGS.join(', ')}, separated by ";")` };
  const services: Category[] = [];
  for (const n of names) {
    const c = findCategory(n);
    if (!c) return { error: `services: unknown service "${n.slice(0, 60)}" (supported: ${CATEGORY_SLUGS.join(', ')})` };
    if (!services.includes(c)) services.push(c);
  }
  return { services };
}

/** Validates one row; returns the professional or the reason it was rejected (first problem found). */
export function validateRow(raw: RawRow): { pro: ProInput } | { error: string } {
  const parsed = rowSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.map(String).join('.') ?? '';
    return { error: `${field ? `${field}: ` : ''}${issue?.message ?? 'invalid'}` };
  }
  const r = parsed.data;
  const services = parseServices(r.services);
  if ('error' in services) return services;
  const zip = r.zip;
  if (!ZIP_PATTERN.test(zip)) return { error: 'zip: must be exactly five digits' };
  const centroid = zipCentroid(zip);
  if ((r.lat === undefined) !== (r.lng === undefined)) return { error: 'lat/lng: give both or neither' };
  if (r.lat === 0 && r.lng === 0) return { error: 'lat/lng: 0,0 is not a US location' };
  if (r.lat === undefined && !centroid) return { error: `zip: ${zip} has no known location; add lat and lng` };
  let phone: string | null = null;
  if (r.phone !== undefined) {
    phone = toE164(r.phone) ?? null;
    if (!phone) return { error: `phone: "${r.phone}" is not a valid phone number` };
  }
  if (r.webhook_url !== undefined && (r.webhook_secret === undefined || r.webhook_secret.length < 16)) {
    return { error: 'webhook_secret: a secret of at least 16 characters is required with webhook_url (it signs the webhooks)' };
  }
  if (r.email === undefined && r.webhook_url === undefined) {
    return { error: 'email or webhook_url: at least one is required, or requests could never reach this professional' };
  }
  if (/\(demo\)\s*$/i.test(r.name)) return { error: 'name: "(Demo)" is reserved for the built-in demo dataset' };
  return {
    pro: {
      externalId: r.external_id,
      name: r.name,
      services: services.services,
      zip,
      lat: r.lat ?? centroid?.lat ?? 0,
      lng: r.lng ?? centroid?.lng ?? 0,
      phone,
      email: r.email?.toLowerCase() ?? null,
      webhookUrl: r.webhook_url ?? null,
      webhookSecret: r.webhook_url !== undefined ? (r.webhook_secret ?? null) : null,
      address: r.address ?? null,
      rating: r.rating ?? null,
      reviewCount: r.review_count ?? null,
      website: r.website ?? null,
      description: r.description ?? null,
      isDemo: false,
    },
  };
}

/** Reads the rows of a CSV (header row required) or JSON file (an array, or {"pros": [...]}). */
export function readRows(text: string, format: 'csv' | 'json'): { row: number; raw: RawRow }[] {
  if (format === 'json') {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw new ImportFileError(`not valid JSON: ${(err as Error).message}`);
    }
    const list = Array.isArray(data) ? data : (data as { pros?: unknown } | null)?.pros;
    if (!Array.isArray(list)) throw new ImportFileError('JSON must be an array of professionals, or an object with a "pros" array');
    return list.map((raw, i) => ({ row: i + 1, raw: raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as RawRow) : { __invalid: raw } }));
  }
  const records = parseCsv(text);
  const header = records.shift();
  if (!header) throw new ImportFileError('the CSV file is empty');
  const columns = header.fields.map((h) => h.trim().toLowerCase());
  for (const required of ['external_id', 'name', 'services', 'zip']) {
    if (!columns.includes(required)) throw new ImportFileError(`the CSV header has no "${required}" column (columns: ${IMPORT_COLUMNS.join(', ')})`);
  }
  return records.map((rec, i) => ({
    row: i + 2,
    raw: Object.fromEntries(columns.map((c, j) => [c, rec.fields[j] ?? ''])),
  }));
}

export function detectFormat(file: string, text: string): 'csv' | 'json' {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.json') return 'json';
  if (ext === '.csv') return 'csv';
  return /^\s*[[{]/.test(text) ? 'json' : 'csv';
}

export async function importPros(file: string, opts: ImportOptions): Promise<ImportSummary> {
  const log = opts.log ?? silentLogger;
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    throw new ImportFileError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const format = detectFormat(file, text);
  const rows = readRows(text, format);

  const rejected: RejectedRow[] = [];
  const valid: ProInput[] = [];
  const firstRowOf = new Map<string, number>();
  for (const { row, raw } of rows) {
    const externalId = typeof raw.external_id === 'string' || typeof raw.external_id === 'number' ? String(raw.external_id).trim() || null : null;
    if ('__invalid' in raw) {
      rejected.push({ row, externalId: null, reason: 'not an object' });
      continue;
    }
    const result = validateRow(raw);
    if ('error' in result) {
      rejected.push({ row, externalId, reason: result.error });
      continue;
    }
    const seen = firstRowOf.get(result.pro.externalId);
    if (seen !== undefined) {
      rejected.push({ row, externalId, reason: `external_id: duplicate of row ${seen}` });
      continue;
    }
    firstRowOf.set(result.pro.externalId, row);
    valid.push(result.pro);
  }

  const summary: ImportSummary = {
    file,
    format,
    dryRun: opts.dryRun ?? false,
    replace: opts.replace ?? false,
    rows: rows.length,
    valid: valid.length,
    rejected,
    inserted: 0,
    updated: 0,
    removed: 0,
    demoRemoved: 0,
    nothingToDo: valid.length === 0,
    exitCode: valid.length === 0 ? 2 : rejected.length > 0 ? 1 : 0,
  };
  if (valid.length === 0) return summary;

  const store = opts.store ?? (await openLeadStore(opts.config, log));
  try {
    if (summary.dryRun) {
      const stats = await store.directoryStats();
      for (const p of valid) {
        if (await store.getPro(proIdFor(p.externalId))) summary.updated++;
        else summary.inserted++;
      }
      summary.demoRemoved = stats.demo;
      if (summary.replace) summary.removed = Math.max(0, stats.total - stats.demo - summary.updated);
    } else {
      const result = await store.upsertPros(valid, { replace: summary.replace, now: opts.now ?? Date.now() });
      Object.assign(summary, result);
      // Demo rows deleted by the replace step are already counted as demoRemoved.
      log.info('professionals imported', { file, inserted: result.inserted, updated: result.updated, removed: result.removed });
    }
  } finally {
    if (!opts.store) await store.close();
  }
  return summary;
}

/** The summary as the CLI prints it. */
export function formatImportSummary(s: ImportSummary): string {
  const lines = [`${s.dryRun ? 'Dry run of' : 'Imported'} ${s.file} (${s.format}): ${s.rows} rows read, ${s.valid} valid, ${s.rejected.length} rejected.`];
  if (s.nothingToDo) {
    lines.push('No valid rows: the directory was left unchanged.');
  } else {
    const verb = s.dryRun ? 'would be ' : '';
    lines.push(`  ${verb}inserted: ${s.inserted}`, `  ${verb}updated: ${s.updated}`);
    if (s.replace) lines.push(`  ${verb}removed (not in the file, --replace): ${s.removed}`);
    if (s.demoRemoved > 0) lines.push(`  ${verb}removed demo professionals: ${s.demoRemoved}`);
  }
  if (s.rejected.length > 0) {
    lines.push('Rejected rows:');
    for (const r of s.rejected) lines.push(`  row ${r.row}${r.externalId ? ` (${r.externalId})` : ''}: ${r.reason}`);
  }
  if (s.dryRun) lines.push('Dry run: nothing was written.');
  return `${lines.join('\n')}\n`;
}
