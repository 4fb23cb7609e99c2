import net from 'node:net';

/** A TCP port that was free a moment ago on 127.0.0.1 (for services whose URL must be known up front). */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, host, () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

function isPortClash(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'EADDRINUSE';
}

/**
 * Runs `start` with a port from freePort(), and again with a new one if another process took that port between
 * freePort() closing it and `start` listening on it (parallel test files make that race real, if rare). `start`
 * must release what it built before rethrowing.
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    const port = await freePort();
    try {
      return await start(port);
    } catch (err) {
      if (!isPortClash(err) || i >= attempts) throw err;
    }
  }
}
