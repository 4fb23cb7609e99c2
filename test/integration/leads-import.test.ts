// `leads import` on good and bad CSV and JSON files, against a real SQLite lead store.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatImportSummary, importPros, ImportFileError } from '../../src/leads/import.js';
import { proIdFor } from '../../src/leads/ids.js';
import { ensureDirectory } from '../../src/leads/service.js';
import { openSqliteLeadStore, type SqliteLeadStore } from '../../src/leads/db/lead-store.js';
import { silentLogger } from '../../src/logger.js';
import { testConfig } from '../support/tool-context.js';
import type { Config } from '../../src/config.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'leads');
const fixture = (name: string) => path.join(fixtures, name);

let config: Config;
let store: SqliteLeadStore;

beforeEach(async () => {
  config = testConfig();
  store = await openSqliteLeadStore(path.join(config.dataDir, 'leads.db'));
});
afterEach(async () => {
  await store.close();
});

describe('leads import', () => {
  it('imports a good CSV: quoted fields, embedded newlines, synonyms, E.164 phones, zip centroids', async () => {
    const s = await importPros(fixture('good.csv'), { config, store });
    expect(s).toMatchObject({ format: 'csv', rows: 3, valid: 3, inserted: 3, updated: 0, exitCode: 0 });
    expect(s.rejected).toEqual([]);

    const acme2 = await store.getPro(proIdFor('acme-2'));
    expect(acme2).toMatchObject({
      name: 'Acme "Quick" Electric',
      services: ['electrician', 'handyman'],
      phone: '+12125550101',
      lat: 40.7403,
      lng: -74.0007,
      description: 'Licensed\nand insured',
      webhookUrl: 'https://hooks.acme.test/leads',
      isDemo: false,
    });
    const acme3 = await store.getPro(proIdFor('acme-3'));
    expect(acme3?.services).toEqual(['hvac']);
    expect(acme3?.lat).toBeCloseTo(34.09, 1); // 90210's centroid
    expect(acme3?.phone).toBe('+13105550102');
  });

  it('imports a good JSON file, and re-importing updates on external_id with stable ids', async () => {
    const first = await importPros(fixture('good.json'), { config, store });
    expect(first).toMatchObject({ format: 'json', valid: 2, inserted: 2, updated: 0 });
    const second = await importPros(fixture('good.json'), { config, store });
    expect(second).toMatchObject({ inserted: 0, updated: 2 });
    expect((await store.directoryStats()).total).toBe(2);
    expect((await store.getPro(proIdFor('json-2')))?.services).toEqual(['locksmith']);
  });

  it('reports every bad CSV row with its row number and reason, and imports the good ones', async () => {
    const s = await importPros(fixture('bad.csv'), { config, store });
    expect(s.valid).toBe(1);
    expect(s.inserted).toBe(1);
    expect(s.exitCode).toBe(1);
    const byRow = Object.fromEntries(s.rejected.map((r) => [r.row, r.reason]));
    expect(byRow[3]).toMatch(/^zip: must be exactly five digits/);
    expect(byRow[4]).toMatch(/^services: unknown service "astrology"/);
    expect(byRow[5]).toMatch(/^phone: "12" is not a valid phone number/);
    expect(byRow[6]).toMatch(/^rating: must be between 0 and 5/);
    expect(byRow[7]).toMatch(/^email or webhook_url: at least one is required/);
    expect(byRow[8]).toMatch(/^external_id: is required/);
    expect(byRow[9]).toMatch(/^webhook_url: must be an http/);
    expect(byRow[10]).toMatch(/^webhook_secret: a secret of at least 16 characters/);
    expect(byRow[11]).toBe('external_id: duplicate of row 2');
    expect(byRow[12]).toMatch(/reserved for the built-in demo dataset/);
    expect(s.rejected).toHaveLength(10);

    const text = formatImportSummary(s);
    expect(text).toContain('11 rows read, 1 valid, 10 rejected');
    expect(text).toContain('row 4 (bad-service): services: unknown service "astrology"');
  });

  it('reports bad JSON items by position', async () => {
    const s = await importPros(fixture('bad.json'), { config, store });
    expect(s.valid).toBe(1);
    expect(s.rejected.map((r) => [r.row, r.reason.split(':')[0]])).toEqual([
      [2, 'not an object'],
      [3, 'name'],
      [4, 'email'],
      [5, 'lat/lng'],
      [6, 'lat/lng'],
      [7, 'review_count'],
    ]);
  });

  it('a dry run validates and counts but writes nothing', async () => {
    await ensureDirectory(store, silentLogger);
    const demo = (await store.directoryStats()).demo;
    expect(demo).toBeGreaterThan(0);
    const s = await importPros(fixture('good.csv'), { config, store, dryRun: true });
    expect(s).toMatchObject({ dryRun: true, inserted: 3, updated: 0, demoRemoved: demo });
    expect(await store.directoryStats()).toEqual({ total: demo, demo });
    expect(formatImportSummary(s)).toContain('Dry run: nothing was written.');
  });

  it('real data replaces the demo dataset; --replace removes pros missing from the file', async () => {
    await ensureDirectory(store, silentLogger);
    const demo = (await store.directoryStats()).demo;
    const s = await importPros(fixture('good.csv'), { config, store });
    expect(s.demoRemoved).toBe(demo);
    expect(await store.directoryStats()).toEqual({ total: 3, demo: 0 });
    expect(await store.hasDemoPros()).toBe(false);

    const replaced = await importPros(fixture('good.json'), { config, store, replace: true });
    expect(replaced).toMatchObject({ inserted: 2, removed: 3 });
    expect(await store.getPro(proIdFor('acme-1'))).toBeUndefined();
    expect((await store.directoryStats()).total).toBe(2);
  });

  it('a file with no valid rows leaves the directory unchanged; unreadable files are errors', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leads-import-'));
    const onlyBad = path.join(dir, 'bad.json');
    fs.writeFileSync(onlyBad, JSON.stringify([{ external_id: 'x' }]));
    const s = await importPros(onlyBad, { config, store, replace: true });
    expect(s).toMatchObject({ valid: 0, nothingToDo: true, exitCode: 2 });
    expect(formatImportSummary(s)).toContain('the directory was left unchanged');

    await expect(importPros(path.join(dir, 'missing.csv'), { config, store })).rejects.toBeInstanceOf(ImportFileError);
    const noHeader = path.join(dir, 'noheader.csv');
    fs.writeFileSync(noHeader, 'a,b\n1,2\n');
    await expect(importPros(noHeader, { config, store })).rejects.toThrow(/no "external_id" column/);
  });

  it('opens and closes DATA_DIR/leads.db itself when no store is given', async () => {
    const s = await importPros(fixture('good.json'), { config });
    expect(s.inserted).toBe(2);
    expect((await store.directoryStats()).total).toBe(2);
  });
});
