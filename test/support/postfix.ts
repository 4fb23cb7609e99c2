// A private Postfix instance (Debian's `postfix` package) as a real MTA for email.verify tests: its own
// config_directory, queue_directory and data_directory in a temp dir, listening only on 127.0.0.1 at a
// free port, final destination for one test domain. It never relays and never looks anything up in DNS.
// Postfix's master must start as root (it drops to the `postfix` user), so this needs root: it says so
// instead of pretending.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface PostfixOptions {
  /** The domain this Postfix is the final destination for (mydestination). */
  domain: string;
  /** Extra recipients, as aliases to root (local part → delivered to root). */
  aliases?: string[];
}

export interface PostfixServer {
  host: '127.0.0.1';
  port: number;
  /** The instance's config_directory (for postfix -c). */
  configDir: string;
  stop(): Promise<void>;
}

const POSTFIX = '/usr/sbin/postfix';
const READY_TIMEOUT_MS = 20_000;

const running = new Set<string>();
let exitHookInstalled = false;

function requirePostfix(): void {
  try {
    fs.accessSync(POSTFIX, fs.constants.X_OK);
  } catch {
    throw new Error('Postfix was not found. Install it with `apt-get install postfix` (Debian/Ubuntu).');
  }
  if (process.getuid?.() !== 0) {
    throw new Error('A private Postfix instance needs root: its master process starts as root and drops to the postfix user.');
  }
}

function userIds(name: string): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function mainCf(dir: string, domain: string): string {
  return [
    'compatibility_level = 3.6',
    `queue_directory = ${dir}/spool`,
    `data_directory = ${dir}/data`,
    'meta_directory = /etc/postfix',
    'mail_owner = postfix',
    'setgid_group = postdrop',
    `myhostname = mx.${domain}`,
    `mydomain = ${domain}`,
    `mydestination = ${domain}`,
    'inet_interfaces = 127.0.0.1',
    'inet_protocols = ipv4',
    'mynetworks = 127.0.0.0/8',
    // No DNS at all: not for client names, not for delivery (it never delivers anyway).
    'smtpd_peername_lookup = no',
    'smtp_dns_support_level = disabled',
    'relayhost =',
    'relay_domains =',
    `alias_maps = texthash:${dir}/etc/aliases`,
    'alias_database =',
    // The point of this instance: unknown local users are refused at RCPT TO (550 5.1.1).
    'local_recipient_maps = proxy:unix:passwd.byname $alias_maps',
    'smtpd_reject_unlisted_recipient = yes',
    'smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination',
    // Log into the instance's own directory (Postfix only writes under maillog_file_prefixes).
    `maillog_file_prefixes = ${dir}`,
    `maillog_file = ${dir}/maillog`,
    'biff = no',
    '',
  ].join('\n');
}

function masterCf(port: number): string {
  // Only what smtpd needs to answer RCPT TO (proxymap for passwd lookups, the queue services it talks to).
  return [
    `127.0.0.1:${port} inet n - n - - smtpd`,
    'cleanup unix n - n - 0 cleanup',
    'qmgr unix n - n 300 1 qmgr',
    'rewrite unix - - n - - trivial-rewrite',
    'bounce unix - - n - 0 bounce',
    'defer unix - - n - 0 bounce',
    'trace unix - - n - 0 bounce',
    'verify unix - - n - 1 verify',
    'flush unix n - n 1000? 0 flush',
    'proxymap unix - - n - - proxymap',
    'error unix - - n - - error',
    'retry unix - - n - - error',
    'discard unix - - n - - discard',
    'local unix - n n - - local',
    'smtp unix - - n - - smtp',
    'anvil unix - - n - 1 anvil',
    'scache unix - - n - 1 scache',
    'showq unix n - n - - showq',
    'postlog unix-dgram n - n - 1 postlogd',
    '',
  ].join('\n');
}

/** Resolves once the instance greets with 220 on its port. */
async function waitForBanner(port: number): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const greeted = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port });
      const done = (ok: boolean) => {
        socket.destroy();
        resolve(ok);
      };
      socket.setTimeout(2000, () => done(false));
      socket.once('data', (chunk) => {
        socket.write('QUIT\r\n');
        done(chunk.toString().startsWith('220'));
      });
      socket.once('error', () => done(false));
    });
    if (greeted) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`Postfix did not greet on 127.0.0.1:${port} within ${READY_TIMEOUT_MS} ms`);
}

function log(dir: string): string {
  try {
    return fs.readFileSync(path.join(dir, 'maillog'), 'utf8').split('\n').slice(-30).join('\n');
  } catch {
    return '(no maillog)';
  }
}

function stopSync(configDir: string): void {
  try {
    execFileSync(POSTFIX, ['-c', configDir, 'abort'], { stdio: 'ignore' });
  } catch {
    // already stopped
  }
}

export async function startPostfix(opts: PostfixOptions): Promise<PostfixServer> {
  requirePostfix();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'postfix-test-'));
  // The postfix user must be able to walk into the instance's directories.
  fs.chmodSync(dir, 0o755);
  const configDir = path.join(dir, 'etc');
  for (const sub of ['etc', 'spool', 'data']) fs.mkdirSync(path.join(dir, sub));
  const postfixUser = userIds('postfix');
  fs.chownSync(path.join(dir, 'data'), postfixUser.uid, postfixUser.gid);
  fs.writeFileSync(path.join(configDir, 'aliases'), (opts.aliases ?? []).map((a) => `${a} root\n`).join(''));

  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    fs.writeFileSync(path.join(configDir, 'main.cf'), mainCf(dir, opts.domain));
    fs.writeFileSync(path.join(configDir, 'master.cf'), masterCf(port));
    try {
      await run(POSTFIX, ['-c', configDir, 'start'], { timeout: 30_000 });
      running.add(configDir);
      installExitHook();
      await waitForBanner(port);
      let stopping: Promise<void> | undefined;
      return {
        host: '127.0.0.1',
        port,
        configDir,
        stop: () =>
          (stopping ??= (async () => {
            await run(POSTFIX, ['-c', configDir, 'stop'], { timeout: 30_000 }).catch(() => stopSync(configDir));
            await waitForMasterExit(dir);
            running.delete(configDir);
            fs.rmSync(dir, { recursive: true, force: true });
          })()),
      };
    } catch (err) {
      lastError = new Error(`Postfix did not start: ${err instanceof Error ? err.message : String(err)}\nIts log:\n${log(dir)}`);
      stopSync(configDir);
      await waitForMasterExit(dir);
      running.delete(configDir);
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
  throw lastError;
}

/** Waits (bounded) until the master named in the pid file is gone, killing it if it lingers. */
async function waitForMasterExit(dir: string): Promise<void> {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(dir, 'spool', 'pid', 'master.pid'), 'utf8').trim());
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0) return;
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const deadline = Date.now() + 10_000;
  while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (alive()) process.kill(pid, 'SIGKILL');
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // A test process that dies without calling stop() must not leave a Postfix running.
  process.once('exit', () => {
    for (const configDir of running) stopSync(configDir);
  });
}
