// One suite for every artifact store (local disk, PostgreSQL, S3 against a local S3-compatible server),
// each opened from configuration the way the service does it. Two instances stand for two nodes of a
// cluster: what one stores the other reads, deletes and sweeps, and a signed /files URL made on one
// node downloads from the other (for S3, optionally through a presigned redirect).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { createFilesRouter } from '../../src/artifacts/files-router.js';
import type { ArtifactStore } from '../../src/artifacts/artifact-store.js';
import { openArtifactStore } from '../../src/artifacts/open-artifact-store.js';
import { signedFileUrl } from '../../src/artifacts/signed-url.js';
import { createTestSchema, type TestSchema } from '../support/postgres.js';
import { startLocalS3, type LocalS3 } from '../support/s3-server.js';
import { testConfig } from '../support/tool-context.js';

const SECRET = 'artifact-cluster-secret-'.padEnd(40, 'x');
const log = createLogger('silent');
let schema: TestSchema;
let s3: LocalS3;
const sharedDiskDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-artifacts-'));

beforeAll(async () => {
  schema = await createTestSchema();
  s3 = await startLocalS3();
});
afterAll(async () => {
  await schema?.drop();
  await s3?.stop();
  fs.rmSync(sharedDiskDir, { recursive: true, force: true });
});

/** The environment of one node for each kind of store. */
const kinds: { name: string; env: () => Record<string, string>; expectKind: string }[] = [
  { name: 'local disk (one machine, two processes)', env: () => ({ DATA_DIR: sharedDiskDir }), expectKind: 'local' },
  { name: 'postgres', env: () => ({ ...schema.env }), expectKind: 'postgres' },
  { name: 's3', env: () => ({ ...s3.env }), expectKind: 's3' },
];

const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 251))]);

async function filesNode(store: ArtifactStore): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  app.use('/files', createFilesRouter({ getStore: async () => store, secret: SECRET }));
  const server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

for (const kind of kinds) {
  describe(`artifact store: ${kind.name}`, () => {
    const open = async (extra: Record<string, string> = {}) => {
      const config = testConfig({ SECRET, ...kind.env(), ...extra });
      const store = await openArtifactStore(config, log);
      return { store, config };
    };

    it('what one node stores, another reads and deletes', async () => {
      const a = await open();
      const b = await open();
      try {
        expect(a.store.kind).toBe(kind.expectKind);
        const meta = await a.store.put(png, 'image/png');
        expect(meta.fileId).toMatch(/^file_[0-9a-z]+$/);
        expect(meta.bytes).toBe(png.byteLength);
        expect(meta.expiresAt.getTime() - meta.createdAt.getTime()).toBeGreaterThanOrEqual(24 * 3600 * 1000 - 1);
        const got = await b.store.get(meta.fileId);
        expect(got!.body.equals(png)).toBe(true);
        expect(got!.meta).toMatchObject({ fileId: meta.fileId, contentType: 'image/png', bytes: png.byteLength });
        expect(Math.abs(got!.meta.expiresAt.getTime() - meta.expiresAt.getTime())).toBeLessThan(1000);
        expect(await b.store.get('file_0000000000nothere')).toBeNull();
        expect(await b.store.get('../etc/passwd')).toBeNull();
        expect(await b.store.delete(meta.fileId)).toBe(true);
        expect(await a.store.delete(meta.fileId)).toBe(false);
        expect(await a.store.get(meta.fileId)).toBeNull();
      } finally {
        await a.store.close?.();
        await b.store.close?.();
      }
    });

    it('any node sweeps expired artifacts and keeps the rest', async () => {
      const a = await open();
      const b = await open();
      try {
        const short = await a.store.put(Buffer.from('short'), 'text/plain', { ttlMs: 1 });
        const long = await a.store.put(Buffer.from('long'), 'text/plain');
        const later = new Date(Date.now() + 5_000);
        expect(await b.store.sweepExpired(later)).toBeGreaterThanOrEqual(1);
        expect(await a.store.get(short.fileId)).toBeNull();
        expect((await a.store.get(long.fileId))!.body.toString()).toBe('long');
        expect(await b.store.sweepExpired(later)).toBe(0);
        await a.store.delete(long.fileId);
      } finally {
        await a.store.close?.();
        await b.store.close?.();
      }
    });

    it('a signed file URL made on one node downloads from another', async () => {
      const a = await open();
      const b = await open();
      const nodeA = await filesNode(a.store);
      const nodeB = await filesNode(b.store);
      try {
        const meta = await a.store.put(png, 'image/png');
        // Node A signs with its own public URL; in a cluster both sit behind one PUBLIC_URL or STORAGE_URL.
        const signed = new URL(signedFileUrl({ ...a.config, publicUrl: nodeA.url, storageUrl: undefined }, SECRET, meta));
        const onB = `${nodeB.url}${signed.pathname}${signed.search}`;
        const r = await fetch(onB);
        expect(r.status).toBe(200);
        expect(r.headers.get('content-type')).toBe('image/png');
        expect(Buffer.from(await r.arrayBuffer()).equals(png)).toBe(true);
        const forged = await fetch(onB.replace(/sig=[^&]+/, 'sig=AAAA'));
        expect(forged.status).toBe(403);
        await b.store.delete(meta.fileId);
        expect((await fetch(onB)).status).toBe(404);
      } finally {
        await nodeA.close();
        await nodeB.close();
        await a.store.close?.();
        await b.store.close?.();
      }
    });
  });
}

describe('artifact store: s3 with presigned downloads', () => {
  it('/files on any node redirects to a presigned URL that serves the bytes', async () => {
    const a = await openArtifactStore(testConfig({ SECRET, ...s3.env }), log);
    const bConfig = testConfig({ SECRET, ...s3.env, S3_PRESIGNED_DOWNLOADS: 'true' });
    const b = await openArtifactStore(bConfig, log);
    const node = await filesNode(b);
    try {
      const meta = await a.put(png, 'image/png');
      const signed = new URL(signedFileUrl({ ...bConfig, publicUrl: node.url, storageUrl: undefined }, SECRET, meta));
      const r = await fetch(`${node.url}${signed.pathname}${signed.search}`, { redirect: 'manual' });
      expect(r.status).toBe(302);
      const location = r.headers.get('location')!;
      expect(location.startsWith(`${s3.endpoint}/${s3.bucket}/artifacts/${meta.fileId}?`)).toBe(true);
      expect(location).toMatch(/X-Amz-Signature=[0-9a-f]{64}/);
      expect(Number(new URL(location).searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(24 * 3600);
      const direct = await fetch(location);
      expect(direct.status).toBe(200);
      expect(Buffer.from(await direct.arrayBuffer()).equals(png)).toBe(true);
      // A deleted artifact is not redirected to: the node answers 404 itself.
      await a.delete(meta.fileId);
      expect((await fetch(`${node.url}${signed.pathname}${signed.search}`, { redirect: 'manual' })).status).toBe(404);
    } finally {
      await node.close();
      await a.close?.();
      await b.close?.();
    }
  });
});
