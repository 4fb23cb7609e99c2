// PostgreSQL for the test suite, for `scripts/setup.mjs --for-tests`. The tests use TEST_DATABASE_URL, else
// the server on 127.0.0.1:5432 (trust auth, database `test`). Where nothing answers there, this starts a
// throwaway cluster of Debian's PostgreSQL on a free loopback port (installing `postgresql` first when it
// is missing, without the package's own cluster), as the postgres user, and writes its URL to
// node_modules/.cache/agent-utility/test-postgres.json, which test/support/postgres.ts reads. A machine's
// running PostgreSQL is never touched. Where it cannot (not Debian, not root), it prints the exact command.
// TEST_POSTGRES_PROBE=host:port moves the probe (to try this path on a machine that has a server on 5432).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const STATE_FILE_NAME = 'test-postgres.json';

const probeOpen = (host, port) =>
  new Promise((resolve) => {
    const s = net.connect({ host, port });
    const done = (ok) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(1500, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** The newest Debian PostgreSQL binaries folder (/usr/lib/postgresql/<major>/bin), if installed. */
function debianBinaries() {
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return undefined;
  const majors = fs
    .readdirSync(base)
    .filter((v) => fs.existsSync(path.join(base, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] ? path.join(base, majors[0], 'bin') : undefined;
}

/**
 * Makes sure the tests have a PostgreSQL. Returns a short description, or throws with the command to run.
 * `{ root, warn, isDebian, isRoot }` come from setup.mjs.
 */
export async function ensureTestPostgres({ root, warn, isDebian, isRoot }) {
  const stateFile = path.join(root, 'node_modules', '.cache', 'agent-utility', STATE_FILE_NAME);
  if (process.env.TEST_DATABASE_URL) return `TEST_DATABASE_URL (${process.env.TEST_DATABASE_URL.replace(/\/\/[^@]*@/, '//…@')})`;
  const [probeHost, probePort] = (process.env.TEST_POSTGRES_PROBE ?? '127.0.0.1:5432').split(':');
  if (await probeOpen(probeHost, Number(probePort))) {
    fs.rmSync(stateFile, { force: true });
    return `the server on ${probeHost}:${probePort}`;
  }
  // A throwaway cluster started earlier and still running.
  if (fs.existsSync(stateFile)) {
    const state = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
    if (await probeOpen('127.0.0.1', state.port)) return `the throwaway cluster on 127.0.0.1:${state.port}`;
  }
  let bin = debianBinaries();
  if (!bin && isDebian && isRoot) {
    warn('installing postgresql (nothing answers on 127.0.0.1:5432; the tests get a throwaway cluster of their own)');
    // No `main` cluster: the package would otherwise start one on 5432 with password authentication.
    const conf = '/etc/postgresql-common/createcluster.conf';
    if (!fs.existsSync(conf)) {
      fs.mkdirSync(path.dirname(conf), { recursive: true });
      fs.writeFileSync(conf, 'create_main_cluster = false\n');
    }
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const apt = (args) => spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env }).status === 0;
    if (apt(['update', '-q'])) apt(['install', '-y', '-q', '--no-install-recommends', '-o', 'Dpkg::Options::=--force-confold', 'postgresql']);
    bin = debianBinaries();
  }
  if (!bin || !isRoot) {
    throw new Error(
      isDebian
        ? 'no PostgreSQL for the tests: run `sudo apt-get install -y postgresql`, then `sudo npm test` (it starts a throwaway cluster), or set TEST_DATABASE_URL=postgres://user@host:port/db'
        : 'no PostgreSQL for the tests: start one on 127.0.0.1:5432 with trust authentication and a database `test`, or set TEST_DATABASE_URL=postgres://user@host:port/db',
    );
  }
  // initdb refuses to run as root: the cluster belongs to the postgres user, in a folder of its own.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-utility-test-pg-'));
  fs.chmodSync(dataDir, 0o700);
  spawnSync('chown', ['postgres:postgres', dataDir]);
  const asPostgres = (cmd, args) => {
    const r = spawnSync('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  };
  const port = await freePort();
  asPostgres('initdb', ['-D', path.join(dataDir, 'data'), '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-instructions']);
  asPostgres('pg_ctl', [
    '-D',
    path.join(dataDir, 'data'),
    '-l',
    path.join(dataDir, 'server.log'),
    '-o',
    `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dataDir} -c fsync=off -c max_connections=300`,
    '-w',
    'start',
  ]);
  asPostgres('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'test']);
  fs.mkdirSync(path.dirname(stateFile), { recursive: true });
  const url = `postgres://postgres@127.0.0.1:${port}/test`;
  fs.writeFileSync(stateFile, JSON.stringify({ url, port, dataDir }, null, 2));
  return `a throwaway cluster on 127.0.0.1:${port} (${dataDir}; stop it with: runuser -u postgres -- ${path.join(bin, 'pg_ctl')} -D ${path.join(dataDir, 'data')} stop)`;
}
