// Chooses the artifact store from configuration (ARTIFACT_STORE): local disk for one machine, PostgreSQL
// (the default when DATABASE_URL is set) or S3 for clusters, where a file made by a worker on one machine
// must be served by /files on any API node.
import path from 'node:path';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { ArtifactStore } from './artifact-store.js';
import { LocalArtifactStore } from './local-artifact-store.js';
import { PostgresArtifactStore } from './postgres-artifact-store.js';

export async function openArtifactStore(config: Config, log: Logger): Promise<ArtifactStore> {
  switch (config.artifacts.store) {
    case 'local':
      return new LocalArtifactStore(path.join(config.dataDir, 'artifacts'));
    case 'postgres':
      return new PostgresArtifactStore({
        connectionString: config.databaseUrl!,
        schema: config.database.schema,
        onError: (err) => log.warn('PostgreSQL connection problem (artifacts); reconnecting', { err }),
      });
    case 's3': {
      // Imported only here: the AWS SDK is large and most installations never load it.
      const { S3ArtifactStore } = await import('./s3-artifact-store.js');
      const s3 = config.artifacts.s3;
      return new S3ArtifactStore({
        bucket: s3.bucket!,
        prefix: s3.prefix,
        presignedDownloads: s3.presignedDownloads,
        client: {
          region: s3.region,
          ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
          forcePathStyle: s3.forcePathStyle,
          // Without explicit keys the SDK's own chain applies (instance role, AWS_* variables, profiles).
          ...(s3.accessKeyId && s3.secretAccessKey ? { credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } } : {}),
        },
      });
    }
  }
}
