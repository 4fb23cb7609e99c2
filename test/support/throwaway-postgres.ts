// A PostgreSQL cluster of the test's own (Debian's binaries, as the postgres user, on a free loopback
// port, in a temp folder), for faults the shared server must never see: stopping, restarting, a small
// max_connections. Needs root and /usr/lib/postgresql/<major>/bin; start() answers { error } otherwise.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';

export interface ThrowawayPostgres {
  url: string;
  stop(): void;
  start(): void;
  restart(): void;
  destroy(): void;
}

function binaries(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return undefined;
  const major = fs
    .readdirSync(base)
    .filter((v) => fs.existsSync(path.join(base, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a))[0];
  return major ? path.join(base, major, 'bin') : undefined;
}

export async function startThrowawayPostgres(settings: Record<string, string> = {}): Promise<ThrowawayPostgres | { error: string }> {
  const bin = binaries();
  if (!bin) return { error: 'no PostgreSQL binaries under /usr/lib/postgresql' };
  if (process.getuid?.() !== 0) return { error: 'a cluster of its own needs root (initdb runs as the postgres user)' };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-pg-fault-'));
  fs.chmodSync(dir, 0o700);
  spawnSync('chown', ['postgres:postgres', dir]);
  const data = path.join(dir, 'data');
  const run = (cmd: string, args: string[]) => {
    const r = spawnSync('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  };
  const port = await freePort();
  const options = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${dir}`,
    '-c fsync=off',
    ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`),
  ].join(' ');
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-instructions']);
  const pgCtl = (action: string, extra: string[] = []) =>
    run('pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-o', options, '-w', ...extra, action]);
  pgCtl('start');
  run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'test']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/test`,
    stop: () => pgCtl('stop', ['-m', 'fast']),
    start: () => pgCtl('start'),
    restart: () => pgCtl('restart', ['-m', 'fast']),
    destroy: () => {
      try {
        pgCtl('stop', ['-m', 'immediate']);
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
