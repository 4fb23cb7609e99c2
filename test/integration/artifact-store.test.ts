// Artifacts on local disk, their signed URLs and the /files route: a valid link serves the bytes with the
// right Content-Type; a tampered one is 403, an expired one 410, a missing artifact 404; the sweeper
// deletes expired artifacts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFilesRouter } from '../../src/artifacts/files-router.js';
import { LocalArtifactStore } from '../../src/artifacts/local-artifact-store.js';
import { artifactStoreService } from '../../src/artifacts/service.js';
import { publishArtifact } from '../../src/artifacts/publish.js';
import { checkFileSignature, signedFileUrl } from '../../src/artifacts/signed-url.js';
import { serveArtifact } from '../../src/artifacts/serve-artifact.js';
import { makeToolContext } from '../support/tool-context.js';

const SECRET = 's'.repeat(40);
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

describe('LocalArtifactStore', () => {
  let dir: string;
  let store: LocalArtifactStore;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-artifacts-'));
    store = new LocalArtifactStore(path.join(dir, 'artifacts'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('stores, reads back and deletes', async () => {
    const meta = await store.put(PNG, 'image/png');
    expect(meta.fileId).toMatch(/^file_[0-9a-z]+$/);
    expect(meta.bytes).toBe(PNG.length);
    expect(meta.expiresAt.getTime() - meta.createdAt.getTime()).toBe(24 * 3600 * 1000);
    const got = await store.get(meta.fileId);
    expect(got?.body.equals(PNG)).toBe(true);
    expect(got?.meta.contentType).toBe('image/png');
    expect(await store.delete(meta.fileId)).toBe(true);
    expect(await store.get(meta.fileId)).toBeNull();
    expect(await store.delete(meta.fileId)).toBe(false);
  });

  it('never touches paths outside its directory', async () => {
    for (const id of ['../secret', 'file_../../x', 'file_ABC', '', 'file_a/b']) {
      expect(await store.get(id)).toBeNull();
      expect(await store.delete(id)).toBe(false);
    }
  });

  it('gives every artifact its own id', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 50; i++) ids.add((await store.put(PNG, 'image/png')).fileId);
    expect(ids.size).toBe(50);
  });

  it('sweeps expired artifacts only', async () => {
    const fresh = await store.put(PNG, 'image/png');
    const old = await store.put(PNG, 'image/png', { ttlMs: 1000 });
    const removed = await store.sweepExpired(new Date(Date.now() + 60_000));
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await store.get(old.fileId)).toBeNull();
    expect(await store.get(fresh.fileId)).not.toBeNull();
    expect(fs.readdirSync(path.join(dir, 'artifacts')).filter((f) => f.startsWith(old.fileId))).toEqual([]);
  });
});

describe('signed file URLs', () => {
  const config = { publicUrl: 'https://utility.example', storageUrl: undefined };
  const file = { fileId: 'file_0123456789abcdefghjk', contentType: 'application/pdf', expiresAt: new Date('2030-01-02T03:04:05Z') };

  it('live under PUBLIC_URL/files, or STORAGE_URL when set, with the type as extension', () => {
    const url = new URL(signedFileUrl(config, SECRET, file));
    expect(url.origin + url.pathname).toBe('https://utility.example/files/file_0123456789abcdefghjk.pdf');
    expect(url.searchParams.get('expires')).toBe(String(Date.parse('2030-01-02T03:04:05Z') / 1000));
    const cdn = new URL(signedFileUrl({ ...config, storageUrl: 'https://cdn.example/a' }, SECRET, file));
    expect(cdn.origin + cdn.pathname).toBe('https://cdn.example/a/file_0123456789abcdefghjk.pdf');
  });

  it('verify, and refuse any change to id, expiry, signature or secret', () => {
    const url = new URL(signedFileUrl(config, SECRET, file));
    const exp = url.searchParams.get('expires')!;
    const sig = url.searchParams.get('sig')!;
    const now = new Date('2030-01-01T00:00:00Z');
    expect(checkFileSignature(SECRET, file.fileId, exp, sig, now)).toBe('valid');
    expect(checkFileSignature(SECRET, 'file_0123456789abcdefghjm', exp, sig, now)).toBe('invalid');
    expect(checkFileSignature(SECRET, file.fileId, String(Number(exp) + 3600), sig, now)).toBe('invalid');
    expect(checkFileSignature(SECRET, file.fileId, exp, `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`, now)).toBe('invalid');
    expect(checkFileSignature('t'.repeat(40), file.fileId, exp, sig, now)).toBe('invalid');
    expect(checkFileSignature(SECRET, file.fileId, undefined, sig, now)).toBe('invalid');
    expect(checkFileSignature(SECRET, file.fileId, exp, undefined, now)).toBe('invalid');
    // Expiry is checked after the signature: exactly at the expiry second the link is gone.
    expect(checkFileSignature(SECRET, file.fileId, exp, sig, file.expiresAt)).toBe('expired');
  });
});

describe('/files route', () => {
  let dir: string;
  let store: LocalArtifactStore;
  let server: ReturnType<ReturnType<typeof express>['listen']>;
  let base: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-files-'));
    store = new LocalArtifactStore(dir);
    const app = express();
    app.use('/files', createFilesRouter({ getStore: async () => store, secret: SECRET }));
    server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const urlFor = (meta: { fileId: string; contentType: string; expiresAt: Date }) => signedFileUrl({ publicUrl: base, storageUrl: undefined }, SECRET, meta);

  it('serves the bytes with the right Content-Type, for GET and HEAD', async () => {
    const meta = await store.put(PNG, 'image/png');
    const res = await fetch(urlFor(meta));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    const head = await fetch(urlFor(meta), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(PNG.length));
    const pdf = await store.put(Buffer.from('%PDF-1.4\n'), 'application/pdf');
    expect((await fetch(urlFor(pdf))).headers.get('content-type')).toBe('application/pdf');
  });

  it('answers 403 for a tampered link', async () => {
    const meta = await store.put(PNG, 'image/png');
    const good = new URL(urlFor(meta));
    const longer = new URL(good);
    longer.searchParams.set('expires', String(Number(good.searchParams.get('expires')) + 86_400));
    const otherId = new URL(good);
    const other = await store.put(PNG, 'image/png');
    otherId.pathname = `/files/${other.fileId}.png`;
    const noSig = new URL(good);
    noSig.searchParams.delete('sig');
    for (const u of [longer, otherId, noSig]) {
      const res = await fetch(u);
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'INVALID_SIGNATURE', retry: false });
    }
  });

  it('answers 410 for an expired link and 404 for a missing artifact', async () => {
    const expired = await store.put(PNG, 'image/png', { ttlMs: -1000 });
    const res = await fetch(urlFor(expired));
    expect(res.status).toBe(410);
    expect(await res.json()).toMatchObject({ code: 'EXPIRED' });
    const gone = await store.put(PNG, 'image/png');
    await store.delete(gone.fileId);
    expect((await fetch(urlFor(gone))).status).toBe(404);
    expect((await fetch(`${base}/files/not-a-file-id`)).status).toBe(404);
  });

  it('decides the same without HTTP (serveArtifact)', async () => {
    const meta = await store.put(PNG, 'image/png');
    const u = new URL(urlFor(meta));
    const q = Object.fromEntries(u.searchParams);
    expect((await serveArtifact(store, SECRET, `${meta.fileId}.png`, q)).status).toBe(200);
    expect((await serveArtifact(store, SECRET, `${meta.fileId}.png`, q, new Date(meta.expiresAt.getTime() + 1000))).status).toBe(410);
    expect((await serveArtifact(store, 'x'.repeat(40), `${meta.fileId}.png`, q)).status).toBe(403);
  });
});

describe('publishArtifact', () => {
  it('stores under DATA_DIR/artifacts and describes the artifact as the SPEC says', async () => {
    const ctx = makeToolContext({ PUBLIC_URL: 'https://utility.example' });
    try {
      const link = await publishArtifact(ctx, PNG, 'image/png');
      expect(link).toMatchObject({ content_type: 'image/png', expires_in_days: 1 });
      expect(link.file_url).toMatch(new RegExp(`^https://utility\\.example/files/${link.file_id}\\.png\\?expires=\\d+&sig=[\\w-]+$`));
      expect(Date.parse(link.expires_at) - Date.now()).toBeGreaterThan(23.9 * 3600 * 1000);
      expect(link.file_url_notes).toMatch(/24 hours/);
      expect(fs.existsSync(path.join(ctx.config.dataDir, 'artifacts', `${link.file_id}.bin`))).toBe(true);
      const store = await ctx.use(artifactStoreService);
      expect((await store.get(link.file_id))?.body.equals(PNG)).toBe(true);
    } finally {
      await ctx.close();
    }
  });
});
