// Artifacts on local disk: DATA_DIR/artifacts/<file_id>.bin with a <file_id>.json beside it holding the
// content type and expiry. Each file is written to a temporary name and renamed, so a reader never sees
// half an artifact, and the metadata is written last, so an artifact exists only once its bytes do.
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { newId } from '../ids.js';
import { ToolError } from '../errors.js';
import { ARTIFACT_TTL_MS, chosenFileId, isFileId, type PutOptions, type ArtifactMeta, type ArtifactStore, type StoredArtifact } from './artifact-store.js';

interface MetaFile {
  content_type: string;
  bytes: number;
  created_at: string;
  expires_at: string;
}

export class LocalArtifactStore implements ArtifactStore {
  readonly kind = 'local';

  constructor(readonly dir: string) {}

  async put(bytes: Uint8Array, contentType: string, opts: PutOptions = {}): Promise<ArtifactMeta> {
    await fs.mkdir(this.dir, { recursive: true });
    const fileId = chosenFileId(opts, () => newId('file', 12));
    const createdAt = new Date();
    const expiresAt = new Date(createdAt.getTime() + (opts.ttlMs ?? ARTIFACT_TTL_MS));
    const meta: MetaFile = {
      content_type: contentType,
      bytes: bytes.byteLength,
      created_at: createdAt.toISOString(),
      expires_at: expiresAt.toISOString(),
    };
    try {
      await this.writeAtomically(this.bodyPath(fileId), bytes);
      await this.writeAtomically(this.metaPath(fileId), JSON.stringify(meta));
    } catch (err) {
      if (!isDiskFull(err)) throw err;
      // No half artifact left taking the space: the body without its metadata would wait for the sweep.
      await removeIfPresent(this.bodyPath(fileId)).catch(() => false);
      // Transient: retried with backoff, and refunded if the disk is still full by the last attempt.
      throw new ToolError("The server's file storage is full, so the file could not be saved. Retry later.", 'transient');
    }
    return { fileId, contentType, bytes: bytes.byteLength, createdAt, expiresAt };
  }

  async get(fileId: string): Promise<StoredArtifact | null> {
    const meta = await this.readMeta(fileId);
    if (!meta) return null;
    try {
      return { meta, body: await fs.readFile(this.bodyPath(fileId)) };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(fileId: string): Promise<boolean> {
    if (!isFileId(fileId)) return false;
    // Metadata first: once it is gone the artifact no longer exists for readers.
    const hadMeta = await removeIfPresent(this.metaPath(fileId));
    const hadBody = await removeIfPresent(this.bodyPath(fileId));
    return hadMeta || hadBody;
  }

  async sweepExpired(now: Date = new Date()): Promise<number> {
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch (err) {
      if (isMissing(err)) return 0;
      throw err;
    }
    let removed = 0;
    for (const name of names) {
      const id = name.replace(/\.json$/, '');
      if (id === name || !isFileId(id)) continue;
      const meta = await this.readMeta(id);
      if (meta && meta.expiresAt.getTime() <= now.getTime() && (await this.delete(id))) removed++;
    }
    // Bodies whose metadata never got written (a crash between the two renames) and stale temp files.
    const cutoff = now.getTime() - 60 * 60 * 1000;
    for (const name of names) {
      const orphanBody = /^(file_[0-9a-z]+)\.bin$/.exec(name);
      const temp = name.startsWith('.tmp-');
      if (!orphanBody && !temp) continue;
      if (orphanBody && names.includes(`${orphanBody[1]}.json`)) continue;
      const stat = await fs.stat(path.join(this.dir, name)).catch(() => null);
      if (stat && stat.mtimeMs < cutoff) await removeIfPresent(path.join(this.dir, name));
    }
    return removed;
  }

  private async readMeta(fileId: string): Promise<ArtifactMeta | null> {
    if (!isFileId(fileId)) return null;
    let raw: string;
    try {
      raw = await fs.readFile(this.metaPath(fileId), 'utf8');
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    const m = JSON.parse(raw) as MetaFile;
    return { fileId, contentType: m.content_type, bytes: m.bytes, createdAt: new Date(m.created_at), expiresAt: new Date(m.expires_at) };
  }

  private bodyPath(fileId: string): string {
    return path.join(this.dir, `${fileId}.bin`);
  }

  private metaPath(fileId: string): string {
    return path.join(this.dir, `${fileId}.json`);
  }

  private async writeAtomically(target: string, data: Uint8Array | string): Promise<void> {
    const temp = path.join(this.dir, `.tmp-${randomBytes(8).toString('hex')}`);
    try {
      await fs.writeFile(temp, data, { mode: 0o600 });
      await fs.rename(temp, target);
    } catch (err) {
      await removeIfPresent(temp);
      throw err;
    }
  }
}

/** Out of space or over quota. */
function isDiskFull(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

async function removeIfPresent(file: string): Promise<boolean> {
  try {
    await fs.unlink(file);
    return true;
  } catch (err) {
    if (isMissing(err)) return false;
    throw err;
  }
}
