// A throwaway certificate authority made with the `openssl` command at test time: a trusted test CA, leaf
// certificates it signs (any names, any validity window — past windows give expired certificates), and
// self-signed certificates. Everything lives in one temp dir removed by cleanup().
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface KeyPair {
  key: string;
  cert: string;
  certPath: string;
}

export interface IssueOptions {
  /** Subject common name. */
  commonName: string;
  /** DNS names and IP addresses for subjectAltName, e.g. ['localhost', '*.example.test', '127.0.0.1']. */
  altNames: string[];
  notBefore?: Date;
  notAfter?: Date;
}

export interface TestPki {
  dir: string;
  caCert: string;
  /** Path to the CA certificate (PEM), e.g. for TLS_CA_FILE. */
  caCertPath: string;
  /** A leaf certificate signed by the test CA. */
  issue(opts: IssueOptions): KeyPair;
  /** A certificate signed by its own key (no CA trusts it). */
  selfSigned(opts: IssueOptions): KeyPair;
  cleanup(): void;
}

const DAY_MS = 86_400_000;

export function createTestPki(): TestPki {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-pki-'));
  const file = (name: string) => path.join(dir, name);
  const openssl = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];

  openssl([
    'req',
    '-x509',
    ...ecKey,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
    '-days',
    '3650',
    '-subj',
    '/O=agent-utility tests/CN=agent-utility Test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  fs.writeFileSync(file('index.txt'), '');
  fs.writeFileSync(file('serial'), `${Date.now().toString(16).padStart(16, '0')}\n`);

  let counter = 0;
  const extensions = (altNames: string[]) =>
    [
      'basicConstraints = CA:FALSE',
      'keyUsage = critical,digitalSignature,keyEncipherment',
      'extendedKeyUsage = serverAuth',
      `subjectAltName = ${altNames.map((n) => (/^[\d.]+$|:/.test(n) ? `IP:${n}` : `DNS:${n}`)).join(',')}`,
    ].join('\n');

  const issue = (opts: IssueOptions): KeyPair => {
    const id = `leaf${++counter}`;
    const notBefore = opts.notBefore ?? new Date(Date.now() - DAY_MS);
    const notAfter = opts.notAfter ?? new Date(Date.now() + 30 * DAY_MS);
    fs.writeFileSync(
      file(`${id}.cnf`),
      [
        '[ca]',
        'default_ca = test_ca',
        '[test_ca]',
        'database = index.txt',
        'new_certs_dir = .',
        'serial = serial',
        'default_md = sha256',
        'policy = any',
        'unique_subject = no',
        'copy_extensions = none',
        '[any]',
        'commonName = supplied',
        '[leaf]',
        extensions(opts.altNames),
        '',
      ].join('\n'),
    );
    openssl(['req', '-new', ...ecKey, '-keyout', file(`${id}.key`), '-out', file(`${id}.csr`), '-subj', `/CN=${opts.commonName}`]);
    openssl([
      'ca',
      '-batch',
      '-notext',
      '-config',
      file(`${id}.cnf`),
      '-cert',
      file('ca.pem'),
      '-keyfile',
      file('ca.key'),
      '-in',
      file(`${id}.csr`),
      '-out',
      file(`${id}.pem`),
      '-extensions',
      'leaf',
      '-startdate',
      opensslDate(notBefore),
      '-enddate',
      opensslDate(notAfter),
    ]);
    return { key: fs.readFileSync(file(`${id}.key`), 'utf8'), cert: fs.readFileSync(file(`${id}.pem`), 'utf8'), certPath: file(`${id}.pem`) };
  };

  const selfSigned = (opts: IssueOptions): KeyPair => {
    const id = `self${++counter}`;
    const addext = extensions(opts.altNames)
      .split('\n')
      .flatMap((line) => ['-addext', line.replace(/\s*=\s*/, '=')]);
    openssl(['req', '-x509', ...ecKey, '-keyout', file(`${id}.key`), '-out', file(`${id}.pem`), '-days', '30', '-subj', `/CN=${opts.commonName}`, ...addext]);
    return { key: fs.readFileSync(file(`${id}.key`), 'utf8'), cert: fs.readFileSync(file(`${id}.pem`), 'utf8'), certPath: file(`${id}.pem`) };
  };

  return {
    dir,
    caCert: fs.readFileSync(file('ca.pem'), 'utf8'),
    caCertPath: file('ca.pem'),
    issue,
    selfSigned,
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** YYYYMMDDHHMMSSZ, the GeneralizedTime form `openssl ca -startdate/-enddate` takes. */
function opensslDate(d: Date): string {
  return `${d.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;
}
