// A read-only install and a HOME that cannot be written: the gazetteer's name keys come from the file
// shipped in dist/data without being rebuilt, and when there is none (another ICU), they are built once and
// kept under the temporary folder, so the next process reads them instead of building them again.
// "Cannot be written" is a path below a regular file: every write fails there, even as root (who ignores
// directory modes, and is who the test machines run as).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { geocodeEmbedded } from '../../src/geo/place/embedded-geocoder.js';
import { Gazetteer } from '../../src/geo/place/gazetteer.js';
import { defaultNameKeysLocations } from '../../src/geo/place/name-index-cache.js';

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gazetteer-readonly-'));
const blocker = path.join(dir, 'a-file');
await fs.writeFile(blocker, 'not a directory');
const unwritable = path.join(blocker, 'cache', 'names.json');
const shipped = path.join(dir, 'shipped', 'names.json');
const saved = { HOME: process.env.HOME, TMPDIR: process.env.TMPDIR };
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

const QUERIES = ['Springfield, IL', 'Москва', 'Wien, Oesterreich'];
const answers = (g: Gazetteer) => QUERIES.map((q) => geocodeEmbedded(g, q));

describe('gazetteer name keys on a read-only install', () => {
  it('reads the shipped keys without building them when no cache can be written', async () => {
    // The shipped file is a copy of this user's cache (built by setup, or here on a first run): a build
    // of its own would prove nothing more and costs the most of anything in this file.
    const built = await Gazetteer.load();
    expect(built.keysFile).not.toBeNull();
    await fs.mkdir(path.dirname(shipped), { recursive: true });
    await fs.copyFile(built.keysFile!, shipped);
    const readOnly = await Gazetteer.load({ keys: { read: [shipped, unwritable], write: [unwritable] } });
    expect(readOnly.keysOrigin).toBe('cache');
    expect(readOnly.keysFile).toBe(shipped);
    expect(answers(readOnly)).toEqual(answers(built));
  }, 180_000);

  it('keeps the keys in memory, without failing, when nothing can be written', async () => {
    const g = await Gazetteer.load({ keys: { read: [unwritable], write: [unwritable] } });
    expect(g.keysOrigin).toBe('built');
    expect(g.keysFile).toBeNull();
    expect(geocodeEmbedded(g, 'Springfield, IL')).toBeTruthy();
  }, 180_000);

  it('with an unwritable HOME and no shipped keys, builds them once into the temporary folder, and stops reading them there once others may write it', async () => {
    process.env.HOME = path.join(blocker, 'home');
    process.env.TMPDIR = await fs.mkdtemp(path.join(dir, 'tmp-'));
    const first = await Gazetteer.load();
    expect(first.keysOrigin).toBe('built');
    const root = path.join(process.env.TMPDIR, `agent-utility-${process.getuid!()}`);
    expect(first.keysFile?.startsWith(root)).toBe(true);
    const second = await Gazetteer.load();
    expect(second.keysOrigin).toBe('cache');
    expect(second.keysFile).toBe(first.keysFile);
    expect(answers(second)).toEqual(answers(first));

    // Once others may write the folder, it is neither read nor written (load() takes exactly these locations;
    // checked here without a third build of the keys).
    expect(defaultNameKeysLocations().read).toContain(first.keysFile);
    await fs.chmod(root, 0o777);
    const where = defaultNameKeysLocations();
    expect([...where.read, ...where.write].filter((f) => f.startsWith(root))).toEqual([]);
  }, 180_000);
});
