// The artifact store as a shared service, with a sweeper that deletes expired artifacts in the
// background. The local-disk store is the default; other adapters plug in here by config.
import type { Logger } from '../logger.js';
import { defineService } from '../registry/services.js';
import type { ArtifactStore } from './artifact-store.js';
import { openArtifactStore } from './open-artifact-store.js';

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

export interface Sweeper {
  stop(): void;
}

/** Sweeps once soon and then every `intervalMs`; the timer never keeps the process alive. */
export function startArtifactSweeper(store: ArtifactStore, log: Logger, intervalMs = SWEEP_INTERVAL_MS): Sweeper {
  let running = false;
  const sweep = () => {
    if (running) return;
    running = true;
    store
      .sweepExpired()
      .then((n) => {
        if (n > 0) log.info('expired artifacts deleted', { count: n });
      })
      .catch((err: unknown) => log.warn('artifact sweep failed', { err }))
      .finally(() => {
        running = false;
      });
  };
  const first = setTimeout(sweep, 5_000);
  const every = setInterval(sweep, intervalMs);
  first.unref();
  every.unref();
  return {
    stop: () => {
      clearTimeout(first);
      clearInterval(every);
    },
  };
}

// The service hands out the store itself (the narrow port); its sweeper is found again here on dispose.
const sweepers = new WeakMap<ArtifactStore, Sweeper>();

export const artifactStoreService = defineService<ArtifactStore>({
  name: 'artifact-store',
  create: async ({ config, log }) => {
    // Local disk, PostgreSQL or S3 by ARTIFACT_STORE (open-artifact-store.ts).
    const store = await openArtifactStore(config, log);
    sweepers.set(store, startArtifactSweeper(store, log));
    return store;
  },
  dispose: async (store) => {
    sweepers.get(store)?.stop();
    await store.close?.();
  },
});
