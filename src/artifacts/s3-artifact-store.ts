// Artifacts in an S3-compatible object store (AWS S3, MinIO, R2, Ceph…): the shared store for clusters
// of any size. Objects are `<prefix><file_id>` with their content type and expiry as object metadata.
// The file id carries its own expiry (`file_<expiry, base 36 seconds, 7 chars><random>`), so the sweeper
// finds expired objects from a listing alone, with no request per object; a bucket lifecycle rule that
// expires the prefix after a day or two is a good second line.
// Loaded only when ARTIFACT_STORE=s3 (the SDK is large), see service.ts.
import { randomBytes } from 'node:crypto';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  getSignedUrl,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from './aws-s3.js';
import { ARTIFACT_TTL_MS, chosenFileId, isFileId, type ArtifactMeta, type ArtifactStore, type PutOptions, type StoredArtifact } from './artifact-store.js';

export interface S3ArtifactStoreOptions {
  bucket: string;
  /** Key prefix, e.g. "artifacts/" (may be empty). */
  prefix: string;
  client: S3ClientConfig;
  /** /files redirects to presigned URLs (the client must be able to reach the endpoint). */
  presignedDownloads?: boolean;
}

const EXPIRY_CHARS = 7; // base-36 seconds: 7 characters last until the year 4453
const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

/** A fresh file id that encodes when the artifact expires. */
export function fileIdExpiringAt(expiresAt: Date): string {
  const seconds = Math.ceil(expiresAt.getTime() / 1000)
    .toString(36)
    .padStart(EXPIRY_CHARS, '0');
  const random = [...randomBytes(16)].map((b) => CROCKFORD[b & 31]).join('');
  return `file_${seconds}${random}`;
}

/** The expiry an id made by fileIdExpiringAt carries, or null for any other id. */
export function expiryOfFileId(fileId: string): Date | null {
  const m = /^file_([0-9a-z]{7})[0-9a-z]{16}$/.exec(fileId);
  if (!m) return null;
  const seconds = parseInt(m[1]!, 36);
  return Number.isFinite(seconds) ? new Date(seconds * 1000) : null;
}

function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

export class S3ArtifactStore implements ArtifactStore {
  readonly kind = 's3';
  private readonly s3: S3Client;

  constructor(private readonly o: S3ArtifactStoreOptions) {
    this.s3 = new S3Client(o.client);
  }

  private key(fileId: string): string {
    return `${this.o.prefix}${fileId}`;
  }

  async put(bytes: Uint8Array, contentType: string, opts: PutOptions = {}): Promise<ArtifactMeta> {
    const createdAt = new Date();
    const expiresAt = new Date(createdAt.getTime() + (opts.ttlMs ?? ARTIFACT_TTL_MS));
    // A caller-chosen id carries no expiry: the sweep leaves it (a bucket lifecycle rule can), get() reads it from the metadata.
    const fileId = chosenFileId(opts, () => fileIdExpiringAt(expiresAt));
    // A PUT is atomic: the object (bytes and metadata) is visible whole or not at all.
    await this.s3.send(
      new PutObjectCommand({
        Bucket: this.o.bucket,
        Key: this.key(fileId),
        Body: bytes,
        ContentType: contentType,
        Metadata: { 'created-at': createdAt.toISOString(), 'expires-at': expiresAt.toISOString() },
      }),
    );
    // Expiry rounded up to whole seconds, as the id carries it.
    return { fileId, contentType, bytes: bytes.byteLength, createdAt, expiresAt: expiryOfFileId(fileId) ?? expiresAt };
  }

  async get(fileId: string): Promise<StoredArtifact | null> {
    if (!isFileId(fileId)) return null;
    try {
      const r = await this.s3.send(new GetObjectCommand({ Bucket: this.o.bucket, Key: this.key(fileId) }));
      const body = Buffer.from(await r.Body!.transformToByteArray());
      const created = r.Metadata?.['created-at'];
      const expires = expiryOfFileId(fileId) ?? new Date(r.Metadata?.['expires-at'] ?? 0);
      return {
        meta: {
          fileId,
          contentType: r.ContentType ?? 'application/octet-stream',
          bytes: body.byteLength,
          createdAt: created ? new Date(created) : (r.LastModified ?? new Date(0)),
          expiresAt: expires,
        },
        body,
      };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(fileId: string): Promise<boolean> {
    if (!isFileId(fileId)) return false;
    // S3 answers a DELETE of a missing key with success, so ask first to report what happened.
    if (!(await this.exists(fileId))) return false;
    await this.s3.send(new DeleteObjectsCommand({ Bucket: this.o.bucket, Delete: { Objects: [{ Key: this.key(fileId) }], Quiet: true } }));
    return true;
  }

  async sweepExpired(now: Date = new Date()): Promise<number> {
    let removed = 0;
    let token: string | undefined;
    do {
      const page = await this.s3.send(new ListObjectsV2Command({ Bucket: this.o.bucket, Prefix: this.o.prefix, ContinuationToken: token }));
      const expired = (page.Contents ?? [])
        .map((o) => o.Key ?? '')
        .filter((key) => {
          const expiry = expiryOfFileId(key.slice(this.o.prefix.length));
          return expiry !== null && expiry.getTime() <= now.getTime();
        });
      if (expired.length > 0) {
        // A listing page holds at most 1,000 keys, the most one DeleteObjects request takes.
        const r = await this.s3.send(new DeleteObjectsCommand({ Bucket: this.o.bucket, Delete: { Objects: expired.map((Key) => ({ Key })), Quiet: true } }));
        removed += expired.length - (r.Errors?.length ?? 0);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return removed;
  }

  /**
   * A presigned GET URL for the object, valid `ttlSeconds`, or null when the artifact does not exist or
   * presigned downloads are off: clients then download straight from the object store, not via a node.
   */
  async downloadUrl(fileId: string, ttlSeconds: number): Promise<string | null> {
    if (!this.o.presignedDownloads || !isFileId(fileId) || !(await this.exists(fileId))) return null;
    // SigV4 presigned URLs live at most 7 days.
    const expiresIn = Math.max(1, Math.min(ttlSeconds, 7 * 24 * 3600));
    return getSignedUrl(this.s3, new GetObjectCommand({ Bucket: this.o.bucket, Key: this.key(fileId) }), { expiresIn });
  }

  private async exists(fileId: string): Promise<boolean> {
    try {
      await this.s3.send(new HeadObjectCommand({ Bucket: this.o.bucket, Key: this.key(fileId) }));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  async close(): Promise<void> {
    this.s3.destroy();
  }
}
