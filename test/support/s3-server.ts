// A local S3-compatible server (s3rver, files in a temp dir) on an ephemeral loopback port, for testing
// the S3 artifact adapter with the real AWS SDK and real presigned URLs. s3rver does not check request
// signatures, so tests here prove what our code sends and reads, not S3's authentication.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  /** ARTIFACT_STORE=s3 settings for a process or config that should use this server. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startLocalS3(bucket = 'artifacts-test'): Promise<LocalS3> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      ARTIFACT_STORE: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    async stop() {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
