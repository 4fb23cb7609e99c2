// Graceful shutdown on SIGINT/SIGTERM for the long-running commands (serve, worker).
import type { Logger } from '../logger.js';

export function onShutdown(log: Logger, close: () => Promise<void>): void {
  let closing = false;
  const handler = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info('shutting down', { signal });
    close().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error('shutdown failed', { err });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => handler('SIGINT'));
  process.on('SIGTERM', () => handler('SIGTERM'));
}
