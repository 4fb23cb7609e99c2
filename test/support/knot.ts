// Starts a real Knot DNS server (Debian's knotd) on an ephemeral loopback port, serving the zones a test
// hands it, so tools that resolve names (dns.lookup, email.verify, the network guard) are tested against
// real DNS answers without leaving the machine. Every instance has its own temp dir and port, so test
// files running in parallel never share a server.
import { spawn, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { domainToASCII } from 'node:url';

export interface KnotZone {
  /** Zone apex, e.g. 'example.test' (a trailing dot and Unicode names are accepted). */
  origin: string;
  /**
   * Zone-file lines, names relative to the origin or absolute with a trailing dot, e.g.
   * '@ 300 IN MX 10 mail', 'www 300 IN A 127.0.0.1'. SOA and apex NS are generated when none is given.
   */
  records: string[];
}

export interface KnotServer {
  port: number;
  /** '127.0.0.1:PORT', the form DNS_SERVERS takes. */
  server: string;
  stop(): Promise<void>;
}

const KNOTD_CANDIDATES = ['/usr/sbin/knotd', '/usr/local/sbin/knotd', '/sbin/knotd'];
const START_ATTEMPTS = 8;
const READY_TIMEOUT_MS = 15_000;

/** Servers still running; killed synchronously if the test process exits without stopping them. */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

export async function startKnot(zones: KnotZone[]): Promise<KnotServer> {
  const knotd = findKnotd();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'knot-test-'));
  try {
    const normalised = zones.map((z) => ({ origin: normaliseOrigin(z.origin), records: z.records }));
    for (const zone of normalised) {
      fs.writeFileSync(path.join(dir, `${zone.origin}.zone`), zoneFile(zone.origin, zone.records));
    }
    let lastError: Error | undefined;
    for (let attempt = 0; attempt < START_ATTEMPTS; attempt++) {
      const port = await freeLoopbackPort();
      fs.writeFileSync(
        path.join(dir, 'knot.conf'),
        knotConfig(
          dir,
          port,
          normalised.map((z) => z.origin),
        ),
      );
      const started = await launch(
        knotd,
        dir,
        port,
        normalised.map((z) => z.origin),
      );
      if (started.ok) return started.server;
      lastError = started.error;
      // Another process took the port between our probe and knotd's bind: pick a new one.
      if (!started.portTaken) break;
    }
    throw lastError ?? new Error('knotd did not start');
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

function findKnotd(): string {
  const fromPath = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .map((d) => path.join(d, 'knotd'));
  for (const candidate of [...KNOTD_CANDIDATES, ...fromPath]) {
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here; try the next place
    }
  }
  throw new Error('knotd (Knot DNS) was not found. Install it with `apt-get install knot` (Debian/Ubuntu).');
}

function normaliseOrigin(origin: string): string {
  const trimmed = origin.trim().replace(/\.$/, '');
  const ascii = domainToASCII(trimmed);
  if (!ascii) throw new Error(`zone origin "${origin}" is not a valid domain name`);
  return ascii;
}

/** Builds the zone file, adding an SOA and an apex NS when the caller's records have none. */
function zoneFile(origin: string, records: string[]): string {
  const types = recordTypesAtApex(origin, records);
  const lines = [`$ORIGIN ${origin}.`, '$TTL 300'];
  if (!types.has('SOA')) lines.push(`@ 300 IN SOA ns1.${origin}. hostmaster.${origin}. 1 3600 600 86400 300`);
  if (!types.has('NS')) lines.push(`@ 300 IN NS ns1.${origin}.`);
  lines.push(...records);
  return `${lines.join('\n')}\n`;
}

const CLASSES = new Set(['IN', 'CH', 'HS', 'CS']);

/** The record types the given lines put at the zone apex (enough to know whether SOA/NS are missing). */
function recordTypesAtApex(origin: string, records: string[]): Set<string> {
  const found = new Set<string>();
  let owner = '@';
  for (const line of records) {
    const text = line.replace(/;.*$/, '');
    if (!text.trim() || text.trim().startsWith('$')) continue;
    const tokens = text.trim().split(/\s+/);
    if (!/^\s/.test(text)) owner = tokens.shift() ?? owner;
    while (tokens.length > 0 && (/^\d+[smhdw]?$/i.test(tokens[0] ?? '') || CLASSES.has((tokens[0] ?? '').toUpperCase()))) tokens.shift();
    const type = (tokens[0] ?? '').toUpperCase();
    const ownerLower = owner.toLowerCase();
    if (ownerLower === '@' || ownerLower === `${origin}.`) found.add(type);
  }
  return found;
}

function knotConfig(dir: string, port: number, origins: string[]): string {
  const user = os.userInfo();
  // knotd switches to `user` after binding; as root keep root (the temp dir is root's), otherwise stay ourselves.
  const userLine = user.uid === 0 ? 'root:root' : user.username;
  const q = (s: string) => JSON.stringify(s);
  return [
    'server:',
    `    rundir: ${q(dir)}`,
    `    user: ${userLine}`,
    `    listen: 127.0.0.1@${port}`,
    '    udp-workers: 1',
    '    tcp-workers: 1',
    '    background-workers: 1',
    // tcp-reuseport stays off: a second knotd on the same port then fails to bind TCP and exits, instead of
    // silently sharing the port (UDP uses SO_REUSEPORT).
    '    tcp-reuseport: off',
    '    identity: ""',
    '    version: ""',
    '    nsid: ""',
    'log:',
    '  - target: stderr',
    '    any: notice',
    'database:',
    `    storage: ${q(dir)}`,
    '    journal-db-max-size: 64M',
    '    kasp-db-max-size: 16M',
    '    timer-db-max-size: 16M',
    '    catalog-db-max-size: 16M',
    'template:',
    '  - id: default',
    `    storage: ${q(dir)}`,
    '    file: "%s.zone"',
    // Serve the zone file exactly as written: never write back, never keep a journal, never sign.
    '    zonefile-sync: -1',
    '    zonefile-load: whole',
    '    journal-content: none',
    '    dnssec-signing: off',
    '    semantic-checks: off',
    'zone:',
    ...origins.map((o) => `  - domain: ${q(`${o}.`)}`),
    '',
  ].join('\n');
}

/** A port free on 127.0.0.1 for both TCP and UDP at the moment of asking. */
async function freeLoopbackPort(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const tcp = net.createServer();
    const port = await new Promise<number>((resolve, reject) => {
      tcp.once('error', reject);
      tcp.listen(0, '127.0.0.1', () => resolve((tcp.address() as net.AddressInfo).port));
    });
    const udp = dgram.createSocket('udp4');
    const udpFree = await new Promise<boolean>((resolve) => {
      udp.once('error', () => resolve(false));
      udp.bind(port, '127.0.0.1', () => resolve(true));
    });
    await new Promise<void>((resolve) => udp.close(() => resolve())).catch(() => undefined);
    await new Promise<void>((resolve) => tcp.close(() => resolve()));
    if (udpFree) return port;
  }
  throw new Error('could not find a free loopback port for knotd');
}

type LaunchResult = { ok: true; server: KnotServer } | { ok: false; error: Error; portTaken: boolean };

async function launch(knotd: string, dir: string, port: number, origins: string[]): Promise<LaunchResult> {
  const child = spawn(knotd, ['-c', path.join(dir, 'knot.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    if (output.length < 64_000) output += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
  track(child);

  const ready = waitUntilAnswering(port, origins);
  const outcome = await Promise.race([
    ready.then((r) => ({ kind: 'ready' as const, r })),
    exited.then((e) => ({ kind: 'exited' as const, e })),
    spawnError.then((err) => ({ kind: 'spawn-error' as const, err })),
  ]);
  if (outcome.kind === 'ready' && outcome.r === true) {
    let stopping: Promise<void> | undefined;
    const server: KnotServer = {
      port,
      server: `127.0.0.1:${port}`,
      stop: () => (stopping ??= stopChild(child, exited).then(() => fs.rmSync(dir, { recursive: true, force: true }))),
    };
    return { ok: true, server };
  }
  ready.cancel();
  await stopChild(child, exited);
  if (outcome.kind === 'spawn-error') {
    return { ok: false, error: new Error(`could not run ${knotd}: ${outcome.err.message}`), portTaken: false };
  }
  const portTaken = /address already in use/i.test(output);
  const why =
    outcome.kind === 'exited' ? `knotd exited (code ${outcome.e.code}, signal ${outcome.e.signal})` : `knotd did not answer within ${READY_TIMEOUT_MS} ms`;
  return { ok: false, error: new Error(`${why} on 127.0.0.1@${port}. Its log:\n${output.trim()}`), portTaken };
}

/** Resolves true once every zone's SOA is served over UDP and TCP-capable knotd is up; false on timeout. */
function waitUntilAnswering(port: number, origins: string[]): Promise<boolean> & { cancel(): void } {
  const resolver = new Resolver({ timeout: 500, tries: 1 });
  resolver.setServers([`127.0.0.1:${port}`]);
  let cancelled = false;
  const probe = async (): Promise<boolean> => {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (!cancelled && Date.now() < deadline) {
      try {
        if (origins.length === 0) {
          // No zones: any answer (knotd refuses names it does not serve) shows it is up.
          await resolver.resolveSoa('knot-harness.test').catch((err: NodeJS.ErrnoException) => {
            if (err.code !== 'EREFUSED' && err.code !== 'ENOTFOUND') throw err;
          });
        } else {
          await Promise.all(origins.map((o) => resolver.resolveSoa(o)));
        }
        return true;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    return false;
  };
  const promise = probe() as Promise<boolean> & { cancel(): void };
  promise.cancel = () => {
    cancelled = true;
    resolver.cancel();
  };
  return promise;
}

async function stopChild(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    const killTimer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(killTimer);
  }
  running.delete(child);
}

function track(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // A test process that dies without calling stop() must not leave knotd listening.
    process.once('exit', () => {
      for (const c of running) c.kill('SIGKILL');
    });
  }
}
